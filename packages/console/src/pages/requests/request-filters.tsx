/**
 * The request log's filters (status, error code, operation, key) and the search by request id. The suggestions
 * come from the Open API's own lists (@org/webinar-types), so they follow the spec.
 */
import { errorCatalog, operations } from "@org/webinar-types";
import { type FormEvent, useId } from "react";
import { useIntl } from "react-intl";
import { useDraft } from "../../components/use-draft";
import type { RequestFilters } from "./request-search";

const STATUS_SUGGESTIONS = [
  "2xx",
  "4xx",
  "5xx",
  ...new Set(Object.values(errorCatalog).map((entry) => String(entry.status))),
].sort();
const ERROR_CODES = ["NONE", ...Object.keys(errorCatalog)];
const OPERATION_IDS = Object.keys(operations);

/** The non-empty, trimmed fields only: an empty field is no filter. */
function withoutBlanks(filters: RequestFilters): RequestFilters {
  return Object.fromEntries(
    Object.entries(filters)
      .map(([name, value]) => [name, typeof value === "string" ? value.trim() : value])
      .filter(([, value]) => value !== undefined && value !== ""),
  );
}

export function RequestFiltersForm({
  applied,
  apiKeys,
  onApply,
}: {
  applied: RequestFilters;
  apiKeys: string[];
  onApply(filters: RequestFilters): void;
}) {
  const { formatMessage } = useIntl();
  const [draft, setDraft] = useDraft<RequestFilters>(applied);
  const id = useId();
  const field = (name: keyof RequestFilters) => ({
    id: `${id}-${name}`,
    value: draft[name] ?? "",
    onChange: (event: { target: { value: string } }) => setDraft({ ...draft, [name]: event.target.value }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply(withoutBlanks(draft));
  };
  return (
    <form className="filters" onSubmit={submit} aria-label={formatMessage({ id: "requests.filters" })}>
      <div>
        <label htmlFor={`${id}-requestId`}>{formatMessage({ id: "requests.searchId" })}</label>
        <input type="search" {...field("requestId")} />
      </div>
      <div>
        <label htmlFor={`${id}-status`}>{formatMessage({ id: "requests.status" })}</label>
        <input list={`${id}-statuses`} {...field("status")} />
        <datalist id={`${id}-statuses`}>
          {STATUS_SUGGESTIONS.map((status) => (
            <option key={status} value={status} />
          ))}
        </datalist>
      </div>
      <div>
        <label htmlFor={`${id}-errorCode`}>{formatMessage({ id: "requests.errorCode" })}</label>
        <input list={`${id}-codes`} {...field("errorCode")} />
        <datalist id={`${id}-codes`}>
          {ERROR_CODES.map((code) => (
            <option key={code} value={code} />
          ))}
        </datalist>
      </div>
      <div>
        <label htmlFor={`${id}-operationId`}>{formatMessage({ id: "requests.operation" })}</label>
        <select {...field("operationId")}>
          <option value="">{formatMessage({ id: "requests.any" })}</option>
          {OPERATION_IDS.map((operationId) => (
            <option key={operationId} value={operationId}>
              {operationId}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor={`${id}-apiKey`}>{formatMessage({ id: "requests.apiKey" })}</label>
        <select {...field("apiKey")}>
          <option value="">{formatMessage({ id: "requests.any" })}</option>
          {apiKeys.map((apiKey) => (
            <option key={apiKey} value={apiKey}>
              {apiKey}
            </option>
          ))}
        </select>
      </div>
      <div className="actions">
        <button type="submit">{formatMessage({ id: "requests.apply" })}</button>
        <button
          type="button"
          className="secondary"
          onClick={() => {
            setDraft({});
            onApply({});
          }}
        >
          {formatMessage({ id: "requests.clear" })}
        </button>
      </div>
    </form>
  );
}
