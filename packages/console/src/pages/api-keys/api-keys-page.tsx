/**
 * The merchant's API keys: each with when it was made, when it was last used (to the minute) and its status;
 * create (the secret shown once), revoke (after a confirmation), roll (with a grace period), and the audit list.
 * An ANALYST sees the keys and the audit list, without the controls.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { consoleApi, type Schemas } from "../../api/console-api";
import { useCanChange } from "../../api/session";
import { ConfirmDialog } from "../../components/confirm-dialog";
import { ErrorMessage } from "../../components/error-message";
import { usePageTitle } from "../../components/use-page-title";
import { useI18n } from "../../i18n/i18n";
import { AuditList } from "./audit-list";
import { type NewSecret, NewSecretPanel } from "./new-secret-panel";
import { RollDialog } from "./roll-dialog";

type ApiKey = Schemas["ApiKey"];

export function ApiKeysPage() {
  const { t } = useI18n();
  const canChange = useCanChange();
  const queryClient = useQueryClient();
  const keys = consoleApi.useQuery("get", "/console/api/api-keys");
  const [created, setCreated] = useState<NewSecret | null>(null);
  const [revoking, setRevoking] = useState<string | null>(null);
  const [rolling, setRolling] = useState<string | null>(null);
  // Every change shows in the list and in the audit list below it.
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ["get", "/console/api/api-keys"] }),
      queryClient.invalidateQueries({ queryKey: ["get", "/console/api/audit-events"] }),
    ]);
  const create = consoleApi.useMutation("post", "/console/api/api-keys", {
    onSuccess: (answer) => {
      setCreated({ apiKey: answer.apiKey, secret: answer.secret });
      void refresh();
    },
  });
  const revoke = consoleApi.useMutation("post", "/console/api/api-keys/{apiKey}/revoke", {
    onSuccess: () => {
      setRevoking(null);
      void refresh();
    },
  });
  const roll = consoleApi.useMutation("post", "/console/api/api-keys/{apiKey}/roll", {
    onSuccess: (answer) => {
      setRolling(null);
      setCreated({ apiKey: answer.apiKey, secret: answer.secret, previous: answer.previous });
      void refresh();
    },
  });
  usePageTitle(t("keys.title"));

  return (
    <>
      <h1>{t("keys.title")}</h1>
      <p className="lead">{t("keys.intro")}</p>
      {canChange ? (
        <p>
          <button type="button" onClick={() => create.mutate({ body: {} })} disabled={create.isPending}>
            {t("keys.create")}
          </button>
        </p>
      ) : (
        <p className="hint">{t("common.readOnly")}</p>
      )}
      {create.isError ? <ErrorMessage error={create.error} /> : null}
      {created === null ? null : <NewSecretPanel created={created} onDone={() => setCreated(null)} />}
      <section aria-labelledby="keys-list-title">
        <h2 id="keys-list-title">{t("keys.listTitle")}</h2>
        {keys.isError ? <ErrorMessage error={keys.error} /> : null}
        {keys.data?.items.length === 0 ? <p>{t("keys.empty")}</p> : null}
        {keys.data === undefined || keys.data.items.length === 0 ? null : (
          <KeysTable
            keys={keys.data.items}
            canChange={canChange}
            onRevoke={(apiKey) => {
              revoke.reset();
              setRevoking(apiKey);
            }}
            onRoll={(apiKey) => {
              roll.reset();
              setRolling(apiKey);
            }}
          />
        )}
      </section>
      <ConfirmDialog
        open={revoking !== null}
        title={t("keys.revokeTitle", { apiKey: revoking ?? "" })}
        confirmLabel={t("keys.revoke")}
        busy={revoke.isPending}
        onConfirm={() => revoking !== null && revoke.mutate({ params: { path: { apiKey: revoking } }, body: {} })}
        onCancel={() => setRevoking(null)}
      >
        <p>{t("keys.revokeExplain")}</p>
        {revoke.isError ? <ErrorMessage error={revoke.error} /> : null}
      </ConfirmDialog>
      <RollDialog
        apiKey={rolling}
        busy={roll.isPending}
        onRoll={(graceSeconds) =>
          rolling !== null && roll.mutate({ params: { path: { apiKey: rolling } }, body: { graceSeconds } })
        }
        onCancel={() => setRolling(null)}
      />
      {roll.isError ? <ErrorMessage error={roll.error} /> : null}
      <AuditList />
    </>
  );
}

function KeysTable({
  keys,
  canChange,
  onRevoke,
  onRoll,
}: {
  keys: ApiKey[];
  canChange: boolean;
  onRevoke(apiKey: string): void;
  onRoll(apiKey: string): void;
}) {
  const { t, formatDateTime } = useI18n();
  const status = (key: ApiKey) =>
    key.status === "REVOKED"
      ? t("keys.statusRevoked")
      : key.revokesAt === null
        ? t("keys.statusActive")
        : t("keys.statusRevokesAt", { at: formatDateTime(key.revokesAt, "minute") });
  return (
    <div className="table-wrap">
      <table>
        <thead>
          <tr>
            <th scope="col">{t("keys.apiKey")}</th>
            <th scope="col">{t("keys.status")}</th>
            <th scope="col">{t("keys.createdAt")}</th>
            <th scope="col">{t("keys.lastUsedAt")}</th>
            {canChange ? <th scope="col">{t("common.actions")}</th> : null}
          </tr>
        </thead>
        <tbody>
          {keys.map((key) => (
            <tr key={key.apiKey} data-api-key={key.apiKey}>
              <td>
                <code>{key.apiKey}</code>
              </td>
              <td>
                <span className={`badge ${key.status === "ACTIVE" ? "ok" : "muted"}`}>{status(key)}</span>
              </td>
              <td>{formatDateTime(key.createdAt, "minute")}</td>
              <td>{key.lastUsedAt === null ? t("keys.neverUsed") : formatDateTime(key.lastUsedAt, "minute")}</td>
              {canChange ? (
                <td>
                  {key.status === "ACTIVE" ? (
                    <div className="actions">
                      <button
                        type="button"
                        className="secondary"
                        onClick={() => onRoll(key.apiKey)}
                        aria-label={t("keys.rollLabel", { apiKey: key.apiKey })}
                      >
                        {t("keys.roll")}
                      </button>
                      <button
                        type="button"
                        className="danger"
                        onClick={() => onRevoke(key.apiKey)}
                        aria-label={t("keys.revokeLabel", { apiKey: key.apiKey })}
                      >
                        {t("keys.revoke")}
                      </button>
                    </div>
                  ) : null}
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
