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
import { type Column, DataTable } from "../../components/data-table";
import { ErrorMessage } from "../../components/error-message";
import { usePageTitle } from "../../components/use-page-title";
import { useIntl } from "react-intl";
import { AuditList } from "./audit-list";
import { type NewSecret, NewSecretPanel } from "./new-secret-panel";
import { RollDialog } from "./roll-dialog";

type ApiKey = Schemas["ApiKey"];

export function ApiKeysPage() {
  const { formatMessage } = useIntl();
  const canChange = useCanChange();
  const queryClient = useQueryClient();
  const keys = consoleApi.useQuery("get", "/console/api/api-keys");
  const [created, setCreated] = useState<NewSecret | null>(null);
  const [revoking, setRevoking] = useState<string | null>(null);
  const [rolling, setRolling] = useState<string | null>(null);
  // Every change shows in the list and in the audit list below it.
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: consoleApi.queryOptions("get", "/console/api/api-keys").queryKey }),
      queryClient.invalidateQueries({ queryKey: consoleApi.queryOptions("get", "/console/api/audit-events").queryKey }),
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
  usePageTitle(formatMessage({ id: "keys.title" }));

  return (
    <>
      <h1>{formatMessage({ id: "keys.title" })}</h1>
      <p className="lead">{formatMessage({ id: "keys.intro" })}</p>
      {canChange ? (
        <p>
          <button type="button" onClick={() => create.mutate({ body: {} })} disabled={create.isPending}>
            {formatMessage({ id: "keys.create" })}
          </button>
        </p>
      ) : (
        <p className="hint">{formatMessage({ id: "common.readOnly" })}</p>
      )}
      {create.isError ? <ErrorMessage error={create.error} /> : null}
      {created === null ? null : <NewSecretPanel created={created} onDone={() => setCreated(null)} />}
      <section aria-labelledby="keys-list-title">
        <h2 id="keys-list-title">{formatMessage({ id: "keys.listTitle" })}</h2>
        {keys.isError ? <ErrorMessage error={keys.error} /> : null}
        {keys.data?.items.length === 0 ? <p>{formatMessage({ id: "keys.empty" })}</p> : null}
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
        title={formatMessage({ id: "keys.revokeTitle" }, { apiKey: revoking ?? "" })}
        confirmLabel={formatMessage({ id: "keys.revoke" })}
        busy={revoke.isPending}
        onConfirm={() => revoking !== null && revoke.mutate({ params: { path: { apiKey: revoking } }, body: {} })}
        onCancel={() => setRevoking(null)}
      >
        <p>{formatMessage({ id: "keys.revokeExplain" })}</p>
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
  const { formatMessage, formatDate } = useIntl();
  const status = (key: ApiKey) =>
    key.status === "REVOKED"
      ? formatMessage({ id: "keys.statusRevoked" })
      : key.revokesAt === null
        ? formatMessage({ id: "keys.statusActive" })
        : formatMessage({ id: "keys.statusRevokesAt" }, { at: new Date(key.revokesAt) });
  const columns: Column<ApiKey>[] = [
    { header: "keys.apiKey", cell: (key) => <code>{key.apiKey}</code> },
    {
      header: "keys.status",
      cell: (key) => <span className={`badge ${key.status === "ACTIVE" ? "ok" : "muted"}`}>{status(key)}</span>,
    },
    { header: "keys.createdAt", cell: (key) => formatDate(key.createdAt, { format: "minute" }) },
    {
      header: "keys.lastUsedAt",
      cell: (key) =>
        key.lastUsedAt === null
          ? formatMessage({ id: "keys.neverUsed" })
          : formatDate(key.lastUsedAt, { format: "minute" }),
    },
  ];
  const actions: Column<ApiKey> = {
    header: "common.actions",
    cell: (key) =>
      key.status === "ACTIVE" ? (
        <div className="actions">
          <button
            type="button"
            className="secondary"
            onClick={() => onRoll(key.apiKey)}
            aria-label={formatMessage({ id: "keys.rollLabel" }, { apiKey: key.apiKey })}
          >
            {formatMessage({ id: "keys.roll" })}
          </button>
          <button
            type="button"
            className="danger"
            onClick={() => onRevoke(key.apiKey)}
            aria-label={formatMessage({ id: "keys.revokeLabel" }, { apiKey: key.apiKey })}
          >
            {formatMessage({ id: "keys.revoke" })}
          </button>
        </div>
      ) : null,
  };
  return (
    <DataTable
      rows={keys}
      rowKey={(key) => key.apiKey}
      rowData={(key) => ({ "data-api-key": key.apiKey })}
      columns={canChange ? [...columns, actions] : columns}
    />
  );
}
