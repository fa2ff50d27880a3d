/** Creates a webinar (createWebinar): a title, optionally its own ticket code, and its first status. */
import { type FormEvent, useId, useState } from "react";
import { consoleApi, type Schemas } from "../../api/console-api";
import { ErrorMessage } from "../../components/error-message";
import { useIntl } from "react-intl";
import { WEBINAR_STATUSES, useStatusLabel } from "./labels";

export function CreateWebinarForm({ onCreated }: { onCreated(): void }) {
  const { formatMessage } = useIntl();
  const statusLabel = useStatusLabel();
  const id = useId();
  const [title, setTitle] = useState("");
  const [ticketCode, setTicketCode] = useState("");
  const [status, setStatus] = useState<Schemas["WebinarStatus"]>("PUBLISHED");
  const create = consoleApi.useMutation("post", "/console/api/webinars", {
    onSuccess: () => {
      setTitle("");
      setTicketCode("");
      onCreated();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const code = ticketCode.trim();
    create.mutate({ body: { title: title.trim(), status, ...(code === "" ? {} : { ticketCode: code }) } });
  };
  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{formatMessage({ id: "webinars.createTitle" })}</h2>
      <form className="filters" onSubmit={submit}>
        <div>
          <label htmlFor={`${id}-name`}>{formatMessage({ id: "webinars.titleField" })}</label>
          <input id={`${id}-name`} required value={title} onChange={(e) => setTitle(e.target.value)} />
        </div>
        <div>
          <label htmlFor={`${id}-code`}>{formatMessage({ id: "webinars.ticketCodeField" })}</label>
          <input
            id={`${id}-code`}
            value={ticketCode}
            aria-describedby={`${id}-code-hint`}
            onChange={(e) => setTicketCode(e.target.value)}
          />
          <p id={`${id}-code-hint`} className="hint">
            {formatMessage({ id: "webinars.ticketCodeHint" })}
          </p>
        </div>
        <div>
          <label htmlFor={`${id}-status`}>{formatMessage({ id: "webinars.status" })}</label>
          <select
            id={`${id}-status`}
            value={status}
            onChange={(e) => setStatus(e.target.value as Schemas["WebinarStatus"])}
          >
            {WEBINAR_STATUSES.map((value) => (
              <option key={value} value={value}>
                {statusLabel(value)}
              </option>
            ))}
          </select>
        </div>
        <div className="actions">
          <button type="submit" disabled={create.isPending}>
            {formatMessage({ id: "webinars.create" })}
          </button>
        </div>
      </form>
      {create.isError ? <ErrorMessage error={create.error} /> : null}
    </section>
  );
}
