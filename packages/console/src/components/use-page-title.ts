import { useEffect } from "react";
import { useI18n } from "../i18n/i18n";

/** Sets the document's title to the page's heading and the console's name, so tabs and history read well. */
export function usePageTitle(heading: string): void {
  const { t } = useI18n();
  useEffect(() => {
    document.title = `${heading} · ${t("app.name")}`;
  }, [heading, t]);
}
