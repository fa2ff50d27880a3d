import { useEffect } from "react";
import { useIntl } from "react-intl";

/** Sets the document's title to the page's heading and the console's name, so tabs and history read well. */
export function usePageTitle(heading: string): void {
  const { formatMessage } = useIntl();
  useEffect(() => {
    document.title = `${heading} · ${formatMessage({ id: "app.name" })}`;
  }, [heading, formatMessage]);
}
