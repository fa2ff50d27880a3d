/**
 * The viewers table's query: its sort, page size and filters (uids, external ids, minimum watch seconds), as
 * queryViewers takes them. Ids are typed separated by commas, spaces or new lines.
 */
import { type FormEvent, useId, useState } from "react";
import type { Schemas } from "../../api/console-api";
import { consoleEnums, consoleLimits } from "../../api/console-schema.gen";
import type { MessageKey } from "../../i18n/catalogue";
import { useI18n } from "../../i18n/i18n";

export type ViewerQuery = Omit<Schemas["QueryViewersRequest"], "mode" | "cursor">;
type Sort = ViewerQuery["sort"];

const SORT_LABELS: Record<Sort, MessageKey> = {
  WATCH_SECONDS_DESC: "viewers.sort.WATCH_SECONDS_DESC",
  LAST_WATCHED_DESC: "viewers.sort.LAST_WATCHED_DESC",
  FIRST_WATCHED_ASC: "viewers.sort.FIRST_WATCHED_ASC",
};

const PAGE_SIZES = [10, 20, 50, 100].filter((size) => size <= consoleLimits.viewersPageSizeMax);

export const FIRST_QUERY: ViewerQuery = { sort: "WATCH_SECONDS_DESC", pageSize: 20 };

function splitIds(text: string): string[] {
  return text
    .split(/[\s,，]+/)
    .map((part) => part.trim())
    .filter((part) => part !== "");
}

export function ViewerQueryForm({ onApply }: { onApply(query: ViewerQuery): void }) {
  const { t } = useI18n();
  const id = useId();
  const [sort, setSort] = useState<Sort>(FIRST_QUERY.sort);
  const [pageSize, setPageSize] = useState(FIRST_QUERY.pageSize);
  const [uids, setUids] = useState("");
  const [externalIds, setExternalIds] = useState("");
  const [minSeconds, setMinSeconds] = useState("");
  const [problem, setProblem] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const uidList = splitIds(uids);
    if (uidList.some((uid) => !/^\d+$/.test(uid))) return setProblem(t("viewers.badUids"));
    const externalList = splitIds(externalIds);
    if (uidList.length + externalList.length > consoleLimits.viewersIdsMax)
      return setProblem(t("viewers.tooManyIds", { count: consoleLimits.viewersIdsMax }));
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
    <form className="filters" onSubmit={submit} aria-label={t("viewers.filters")}>
      <div>
        <label htmlFor={`${id}-sort`}>{t("viewers.sort")}</label>
        <select id={`${id}-sort`} value={sort} onChange={(e) => setSort(e.target.value as Sort)}>
          {consoleEnums.sorts.map((value) => (
            <option key={value} value={value}>
              {t(SORT_LABELS[value])}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor={`${id}-size`}>{t("viewers.pageSize")}</label>
        <select id={`${id}-size`} value={pageSize} onChange={(e) => setPageSize(Number(e.target.value))}>
          {PAGE_SIZES.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor={`${id}-uids`}>{t("viewers.uids")}</label>
        <input id={`${id}-uids`} inputMode="numeric" value={uids} onChange={(e) => setUids(e.target.value)} />
      </div>
      <div>
        <label htmlFor={`${id}-external`}>{t("viewers.externalIds")}</label>
        <input id={`${id}-external`} value={externalIds} onChange={(e) => setExternalIds(e.target.value)} />
      </div>
      <div>
        <label htmlFor={`${id}-min`}>{t("viewers.minSeconds")}</label>
        <input
          id={`${id}-min`}
          type="number"
          min={0}
          step={1}
          value={minSeconds}
          onChange={(e) => setMinSeconds(e.target.value)}
        />
      </div>
      <div className="actions">
        <button type="submit">{t("viewers.apply")}</button>
      </div>
      {problem === null ? null : (
        <p role="alert" className="error">
          {problem}
        </p>
      )}
    </form>
  );
}
