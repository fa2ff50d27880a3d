import { useState } from "react";

/**
 * A form's draft of what the address holds (a search's filters): typed into freely, sent with the form, and
 * replaced when the address changes otherwise (back, forward, a link), so the form always starts from what is
 * shown. The form stays mounted, so focus stays on the button that sent it.
 */
export function useDraft<Draft>(applied: Draft): [Draft, (draft: Draft) => void] {
  const [draft, setDraft] = useState(applied);
  const appliedText = JSON.stringify(applied);
  const [draftOf, setDraftOf] = useState(appliedText);
  if (draftOf !== appliedText) {
    // React's way to adjust state when a prop changes: during render, before the children see the old draft.
    setDraftOf(appliedText);
    setDraft(applied);
  }
  return [draft, setDraft];
}
