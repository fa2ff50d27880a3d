/**
 * The signed-in person's two-step sign-in: turn it on (a QR code and the secret for an authenticator app, then one
 * of its codes), see how many recovery codes are left, make new ones, or turn it off. Recovery codes are shown once,
 * right after they are made. While the merchant requires two-step sign-in of a person who has none, this is the
 * only page they are shown (components/signed-in.tsx).
 */
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useIntl } from "react-intl";
import { consoleApi } from "../../api/console-api";
import { meQuery, useMe } from "../../api/session";
import { ConfirmDialog } from "../../components/confirm-dialog";
import { ErrorMessage } from "../../components/error-message";
import { usePageTitle } from "../../components/use-page-title";
import { Enrollment } from "./enrollment";
import { RecoveryCodesPanel } from "./recovery-codes-panel";

export function TwoStepPage() {
  const { formatMessage } = useIntl();
  const me = useMe().data;
  const queryClient = useQueryClient();
  const [codes, setCodes] = useState<string[] | null>(null);
  const [disabling, setDisabling] = useState(false);
  const refreshMe = () => queryClient.invalidateQueries({ queryKey: meQuery.queryKey });
  const regenerate = consoleApi.useMutation("post", "/console/api/me/two-factor/recovery-codes", {
    onSuccess: (answer) => {
      setCodes(answer.recoveryCodes);
      void refreshMe();
    },
  });
  const disable = consoleApi.useMutation("post", "/console/api/me/two-factor/disable", {
    onSuccess: () => {
      setDisabling(false);
      setCodes(null);
      void refreshMe();
    },
  });
  usePageTitle(formatMessage({ id: "twoStep.title" }));
  if (me === undefined) return null;
  const { enabled, required, recoveryCodesLeft } = me.twoFactor;

  return (
    <>
      <h1>{formatMessage({ id: "twoStep.title" })}</h1>
      <p className="lead">{formatMessage({ id: "twoStep.intro" })}</p>
      {me.enrollmentRequired ? (
        <p role="alert" className="notice-text">
          {formatMessage({ id: "twoStep.requiredNow" })}
        </p>
      ) : null}
      {codes === null ? null : <RecoveryCodesPanel codes={codes} onDone={() => setCodes(null)} />}
      {enabled ? (
        <section className="panel" aria-labelledby="two-step-on-title">
          <h2 id="two-step-on-title">{formatMessage({ id: "twoStep.onTitle" })}</h2>
          <p>{formatMessage({ id: "twoStep.codesLeft" }, { count: recoveryCodesLeft })}</p>
          <div className="actions">
            <button
              type="button"
              className="secondary"
              disabled={regenerate.isPending}
              onClick={() => regenerate.mutate({ body: {} })}
            >
              {formatMessage({ id: "twoStep.regenerate" })}
            </button>
            <button
              type="button"
              className="danger"
              onClick={() => {
                disable.reset();
                setDisabling(true);
              }}
            >
              {formatMessage({ id: "twoStep.disable" })}
            </button>
          </div>
          {required ? <p className="hint">{formatMessage({ id: "twoStep.requiredByMerchant" })}</p> : null}
          {regenerate.isError ? <ErrorMessage error={regenerate.error} /> : null}
        </section>
      ) : (
        <Enrollment
          onEnabled={(recoveryCodes) => {
            setCodes(recoveryCodes);
            void refreshMe();
          }}
        />
      )}
      <ConfirmDialog
        open={disabling}
        title={formatMessage({ id: "twoStep.disableTitle" })}
        confirmLabel={formatMessage({ id: "twoStep.disable" })}
        busy={disable.isPending}
        onConfirm={() => disable.mutate({ body: {} })}
        onCancel={() => setDisabling(false)}
      >
        <p>{formatMessage({ id: "twoStep.disableExplain" })}</p>
        {disable.isError ? <ErrorMessage error={disable.error} /> : null}
      </ConfirmDialog>
    </>
  );
}
