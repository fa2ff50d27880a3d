/**
 * The upsert as a model command: a merchant upserts one of three external ids with one of three phones (or
 * keeps the phone, or sends a blank one) and one of a few display names (or keeps it, or clears it). The answer
 * must be what the model says: 409 `VIEWER_IDENTITY_CONFLICT` when another viewer of the merchant holds the phone
 * (nothing changed), otherwise the viewer with `created` true only the first time, its uid unchanged, the phone
 * bound (an earlier one released) and the name trimmed, kept or cleared.
 */
import type fc from "fast-check";
import type { UpsertViewerResult, Viewer } from "@org/webinar-types";
import { CheckFailure, dataOf, expectError, expectSuccess } from "../check";
import { phoneHolder, type Model, type ViewerModel } from "./model";
import { send, type Real } from "./real";

/** Names as people type them, one with white space around it. */
export const NAMES = ["Qin 2", " 张三 ", "anna 🎉", "Li Wei"] as const;

export interface UpsertParams {
  merchant: number;
  key: string;
  /** A phone of the sequence by index, `keep` (omitted) or `blank` (whitespace, which keeps it too). */
  phone: number | "keep" | "blank";
  /** A name, `null` to clear it, or `keep` (omitted). */
  name: string | null | "keep";
}

function bodyOf(params: UpsertParams, real: Real, externalUserId: string): Record<string, unknown> {
  return {
    externalUserId,
    ...(typeof params.phone === "number" ? { phone: real.phones[params.phone] } : {}),
    ...(params.phone === "blank" ? { phone: "  " } : {}),
    ...(params.name === "keep" ? {} : { displayName: params.name }),
  };
}

function ensureViewerIs(viewer: Viewer, expected: Omit<ViewerModel, "key" | "uid">, created: boolean): void {
  const wrong = (["externalUserId", "phone", "displayName"] as const).filter(
    (field) => viewer[field] !== expected[field],
  );
  if (wrong.length > 0)
    throw new CheckFailure(
      `the ${created ? "new" : "updated"} viewer has ${wrong
        .map((field) => `${field} ${JSON.stringify(viewer[field])}, expected ${JSON.stringify(expected[field])}`)
        .join(", ")}`,
    );
}

export class UpsertCommand implements fc.AsyncCommand<Model, Real> {
  constructor(readonly params: UpsertParams) {}

  check(): boolean {
    return true;
  }

  async run(model: Model, real: Real): Promise<void> {
    const { merchant: index, key, phone, name } = this.params;
    const merchant = model.merchants[index]!;
    const externalUserId = real.context.externalUserId(`model-${key}`);
    const existing = merchant.viewers.get(key);
    const answer = await send(real, index, "upsertViewer", bodyOf(this.params, real, externalUserId));
    const wanted = typeof phone === "number" ? real.phones[phone]! : undefined;
    if (wanted !== undefined && phoneHolder(merchant, wanted, key) !== undefined) {
      expectError(answer, 409, ["VIEWER_IDENTITY_CONFLICT"]);
      return;
    }
    expectSuccess(answer);
    const { viewer, created } = dataOf<UpsertViewerResult>(answer);
    if (created !== (existing === undefined))
      throw new CheckFailure(`created is ${created} for ${existing === undefined ? "a new" : "an existing"} viewer`);
    const expected = {
      externalUserId,
      phone: wanted ?? existing?.phone ?? null,
      displayName: name === "keep" ? (existing?.displayName ?? null) : name === null ? null : name.trim(),
    };
    ensureViewerIs(viewer, expected, created);
    if (existing !== undefined && viewer.uid !== existing.uid)
      throw new CheckFailure(`the viewer's uid changed from ${existing.uid} to ${viewer.uid}`);
    const clash = [...merchant.viewers.values()].find((other) => other.key !== key && other.uid === viewer.uid);
    if (clash !== undefined) throw new CheckFailure(`uid ${viewer.uid} is also the uid of another viewer`);
    merchant.viewers.set(key, { key, uid: viewer.uid, ...expected });
  }

  toString(): string {
    const { merchant, key, phone, name } = this.params;
    return `upsert(${"AB"[merchant]}, ${key}, phone ${phone}, name ${JSON.stringify(name)})`;
  }
}
