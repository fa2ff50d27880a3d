/** Copies a text to the clipboard and says so in a polite live region. */
import { useState } from "react";
import { useI18n } from "../i18n/i18n";

export function CopyButton({ text, label }: { text: string; label: string }) {
  const { t } = useI18n();
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState("copied");
    } catch {
      setState("failed");
    }
  };
  return (
    <>
      <button type="button" className="secondary" onClick={() => void copy()}>
        {label}
      </button>
      <span role="status" className="copy-status">
        {state === "copied" ? t("common.copied") : state === "failed" ? t("common.copyFailed") : ""}
      </span>
    </>
  );
}
