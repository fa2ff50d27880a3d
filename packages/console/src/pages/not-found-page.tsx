import { Link } from "@tanstack/react-router";
import { useIntl } from "react-intl";
import { usePageTitle } from "../components/use-page-title";

export function NotFoundPage() {
  const { formatMessage } = useIntl();
  usePageTitle(formatMessage({ id: "notFound.title" }));
  return (
    <section>
      <h1>{formatMessage({ id: "notFound.title" })}</h1>
      <p>
        <Link to="/webinars">{formatMessage({ id: "notFound.back" })}</Link>
      </p>
    </section>
  );
}
