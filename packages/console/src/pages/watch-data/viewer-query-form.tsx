/**
 * The viewers table's query: its sort, page size and filters (uids, external ids, minimum watch seconds), as
 * queryViewers takes them, starting from the query applied. Ids are typed separated by commas, spaces or new lines.
 */
import { type FormEvent, useId, useState } from "react";
import { useIntl } from "react-intl";
import { consoleEnums, consoleLimits } from "@org/webinar-console-contract";
import { useDraft } from "../../components/use-draft";
import type { MessageKey } from "../../i18n/catalogue";
import { PAGE_SIZES, type ViewerQuery } from "./viewer-search";

type Sort = ViewerQuery["sort"];

const SORT_LABELS: Record<Sort, MessageKey> = {
  WATCH_SECONDS_DESC: "viewers.sort.WATCH_SECONDS_DESC",
  LAST_WATCHED_DESC: "viewers.sort.LAST_WATCHED_DESC",
  FIRST_WATCHED_ASC: "viewers.sort.FIRST_WATCHED_ASC",
};

function splitIds(text: string): string[] {
  return text
    .split(/[\s,，]+/)
    .map((part) => part.trim())
    .filter((part) => part !== "");
}

export function ViewerQueryForm({ applied, onApply }: { applied: ViewerQuery; onApply(query: ViewerQuery): void }) {
  const { formatMessage } = useIntl();
  const id = useId();
  const [draft, setDraft] = useDraft({
    sort: applied.sort,
    pageSize: applied.pageSize,
    uids: applied.uids?.join(", ") ?? "",
    externalIds: applied.externalUserIds?.join(", ") ?? "",
    minSeconds: applied.minWatchSeconds?.toString() ?? "",
  });
  const { sort, pageSize, uids, externalIds, minSeconds } = draft;
  const edit = (change: Partial<typeof draft>) => setDraft({ ...draft, ...change });
  const [problem, setProblem] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const uidList = splitIds(uids);
    if (uidList.some((uid) => !/^\d+$/.test(uid))) return setProblem(formatMessage({ id: "viewers.badUids" }));
    const externalList = splitIds(externalIds);
    if (uidList.length + externalList.length > consoleLimits.viewersIdsMax)
      return setProblem(formatMessage({ id: "viewers.tooManyIds" }, { count: consoleLimits.viewersIdsMax }));
    setProblem(null);
    onApply({
      sort,
      pageSize,
      ...(uidList.length === 0 ? {} : { uids: uidList.map(Number) }),
      ...(externalList.length === 0 ? {} : { externalUserIds: externalList }),
      ...(minSeconds.trim() === "" ? {} : { minWatchSeconds: Number(minSeconds) }),
    });
  };

  return (
    <form className="filters" onSubmit={submit} aria-label={formatMessage({ id: "viewers.filters" })}>
      <div>
        <label htmlFor={`${id}-sort`}>{formatMessage({ id: "viewers.sort" })}</label>
        <select id={`${id}-sort`} value={sort} onChange={(e) => edit({ sort: e.target.value as Sort })}>
          {consoleEnums.sorts.map((value) => (
            <option key={value} value={value}>
              {formatMessage({ id: SORT_LABELS[value] })}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor={`${id}-size`}>{formatMessage({ id: "viewers.pageSize" })}</label>
        <select id={`${id}-size`} value={pageSize} onChange={(e) => edit({ pageSize: Number(e.target.value) })}>
          {PAGE_SIZES.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor={`${id}-uids`}>{formatMessage({ id: "viewers.uids" })}</label>
        <input id={`${id}-uids`} inputMode="numeric" value={uids} onChange={(e) => edit({ uids: e.target.value })} />
      </div>
      <div>
        <label htmlFor={`${id}-external`}>{formatMessage({ id: "viewers.externalIds" })}</label>
        <input id={`${id}-external`} value={externalIds} onChange={(e) => edit({ externalIds: e.target.value })} />
      </div>
      <div>
        <label htmlFor={`${id}-min`}>{formatMessage({ id: "viewers.minSeconds" })}</label>
        <input
          id={`${id}-min`}
          type="number"
          min={0}
          step={1}
          value={minSeconds}
          onChange={(e) => edit({ minSeconds: e.target.value })}
        />
      </div>
      <div className="actions">
        <button type="submit">{formatMessage({ id: "viewers.apply" })}</button>
      </div>
      {problem === null ? null : (
        <p role="alert" className="error">
          {problem}
        </p>
      )}
    </form>
  );
}
