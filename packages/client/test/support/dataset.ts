/**
 * An in-memory merchant for the verifying server: viewers, webinars and per-viewer watch records, generated
 * deterministically so that tests can compute what a query must return.
 */
import type { DataState, ViewerWatchRecord } from "@org/webinar-types";

export interface DatasetViewer {
  uid: number;
  externalUserId: string;
  phone: string | null;
  displayName: string | null;
}

export interface DatasetWebinar {
  ticketCode: string;
  published: boolean;
  /** dataState of the LIVE overview, one per overview request; the last one repeats. */
  liveStates: DataState[];
}

export interface Dataset {
  viewers: Map<number, DatasetViewer>;
  webinars: Map<string, DatasetWebinar>;
  /** Watch records per ticketCode. */
  records: Map<string, ViewerWatchRecord[]>;
  nextUid: number;
}

export const TICKET_CODE = "WBN8K2QX";

const at = (minute: number) =>
  new Date(Date.UTC(2026, 0, 1, 10, 0, 0) + minute * 60_000).toISOString().replace(".000Z", "Z");

/** A watch record of `viewer`; ties in every sort key are frequent on purpose (`index % 7`, `index % 11`). */
export function watchRecordOf(viewer: DatasetViewer, index: number): ViewerWatchRecord {
  const totalWatchSeconds = 60 * (index % 7) + 30;
  const record: ViewerWatchRecord = {
    subjectId: `sub_${(viewer.uid * 7919).toString(36)}`,
    identityType: "REGISTERED",
    displayNickname: viewer.displayName ?? `Viewer ${String(viewer.uid).slice(-4)}`,
    uid: viewer.uid,
    externalUserId: viewer.externalUserId,
    totalWatchSeconds,
    liveWatchSeconds: Math.floor(totalWatchSeconds / 2),
    replayWatchSeconds: totalWatchSeconds - Math.floor(totalWatchSeconds / 2),
    sessionCount: 1 + (index % 3),
    firstWatchedAt: at(index % 11),
    lastWatchedAt: at(30 + (index % 13)),
    deviceTypes: index % 2 === 0 ? ["DESKTOP"] : ["MOBILE", "TABLET"],
    protocols: index % 3 === 0 ? ["WEBRTC", "HLS"] : ["HLS"],
  };
  if (viewer.phone !== null) record.phone = viewer.phone;
  if (viewer.displayName !== null) record.displayName = viewer.displayName;
  return record;
}

/**
 * `viewerCount` viewers (uids from 10000, external ids `crm-<index>`), all of whom watched webinar
 * {@link TICKET_CODE}. Some names need CSV quoting (commas, quotes, line breaks are not allowed by the spec, but
 * commas and quotes are).
 */
export function createDataset(viewerCount: number): Dataset {
  const viewers = new Map<number, DatasetViewer>();
  const records: ViewerWatchRecord[] = [];
  for (let index = 0; index < viewerCount; index += 1) {
    const viewer: DatasetViewer = {
      uid: 10000 + index,
      externalUserId: `crm-${index}`,
      phone: index % 4 === 0 ? `138${String(index).padStart(8, "0")}` : null,
      displayName: index % 5 === 0 ? `Chen, "Alice" ${index}` : index % 5 === 1 ? `张三 ${index}` : null,
    };
    viewers.set(viewer.uid, viewer);
    records.push(watchRecordOf(viewer, index));
  }
  return {
    viewers,
    webinars: new Map([[TICKET_CODE, { ticketCode: TICKET_CODE, published: true, liveStates: ["FINAL"] }]]),
    records: new Map([[TICKET_CODE, records]]),
    nextUid: 10000 + viewerCount,
  };
}
