/**
 * The embedded database's notifications: PGlite runs LISTEN/NOTIFY inside this process, so every server on one
 * embedded database hears every change, and there is no connection that could be lost.
 */
import type { PGlite } from "@electric-sql/pglite";
import { CHANGE_CHANNEL, isChangeTopic, type ChangeSignal, type ChangeSource } from "./change-feed";

export async function listenOnPglite(pglite: PGlite, signal: (signal: ChangeSignal) => void): Promise<ChangeSource> {
  const unlisten = await pglite.listen(CHANGE_CHANNEL, (payload) => {
    if (isChangeTopic(payload)) signal(payload);
  });
  return { listening: true, close: () => unlisten() };
}
