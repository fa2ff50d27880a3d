import { usePageTitle } from "../components/use-page-title";
import { useI18n } from "../i18n/i18n";
import { Link } from "../routing/router";

export function NotFoundPage() {
  const { t } = useI18n();
  usePageTitle(t("notFound.title"));
  return (
    <section>
      <h1>{t("notFound.title")}</h1>
      <p>
        <Link to={{ page: "webinars" }}>{t("notFound.back")}</Link>
      </p>
    </section>
  );
}
