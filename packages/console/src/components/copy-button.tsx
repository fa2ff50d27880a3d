/** Copies a text to the clipboard and says so in a polite live region. */
import { useState } from "react";
import { useIntl } from "react-intl";

export function CopyButton({ text, label }: { text: string; label: string }) {
  const { formatMessage } = useIntl();
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
        {state === "copied"
          ? formatMessage({ id: "common.copied" })
          : state === "failed"
            ? formatMessage({ id: "common.copyFailed" })
            : ""}
      </span>
    </>
  );
}
