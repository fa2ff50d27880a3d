/**
 * A modal question before a change that cannot be undone (revoking a key, ending a live): the native `<dialog>`
 * opened with showModal, so focus moves into it, stays there and Escape cancels.
 */
import { type ReactNode, useEffect, useId, useRef } from "react";
import { useIntl } from "react-intl";

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  onConfirm(): void;
  onCancel(): void;
  busy?: boolean;
}

export function ConfirmDialog({ open, title, children, confirmLabel, onConfirm, onCancel, busy }: ConfirmDialogProps) {
  const { formatMessage } = useIntl();
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const element = dialog.current;
    if (element === null) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);
  return (
    <dialog ref={dialog} aria-labelledby={titleId} onCancel={onCancel} className="dialog">
      <h2 id={titleId}>{title}</h2>
      {children}
      <div className="actions">
        <button type="button" className="danger" onClick={onConfirm} disabled={busy === true}>
          {confirmLabel}
        </button>
        <button type="button" className="secondary" onClick={onCancel}>
          {formatMessage({ id: "common.cancel" })}
        </button>
      </div>
    </dialog>
  );
}
