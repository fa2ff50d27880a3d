/**
 * upsertViewer, the rules of its table: create or return, idempotence, trimming and case, display names, and phone
 * binding with its conflicts (409 `VIEWER_IDENTITY_CONFLICT`, nothing modified, no merging). Each check works on
 * viewers of its own.
 */
import { ensure, expectError, type Check } from "../check";
import { createViewer, currentViewer, ensureViewer, upsert, upsertOk } from "./viewers";

const createChecks: Check[] = [
  {
    id: "upsert.create",
    title: "a new externalUserId -> 200, created: true, the viewer with that id, phone and displayName null",
    async run(context) {
      const externalUserId = context.externalUserId("create");
      const result = await upsertOk(context, { externalUserId });
      ensure(result.created, "created is false for a new externalUserId");
      ensureViewer(result.viewer, { externalUserId, phone: null, displayName: null }, "the new viewer");
      return `uid ${result.viewer.uid}`;
    },
  },
  {
    id: "upsert.return-existing",
    title: "the same externalUserId again -> the same viewer, created: false",
    async run(context) {
      const viewer = await createViewer(context, "again");
      const again = await upsertOk(context, { externalUserId: viewer.externalUserId });
      ensure(!again.created, "created is true for an existing viewer");
      ensureViewer(again.viewer, viewer, "the returned viewer");
      return undefined;
    },
  },
  {
    id: "upsert.trimmed",
    title: "externalUserId with surrounding spaces -> trimmed: the same viewer as without them",
    async run(context) {
      const viewer = await createViewer(context, "trim");
      const padded = await upsertOk(context, { externalUserId: `  ${viewer.externalUserId} ` });
      ensure(!padded.created, "created is true: the padded id made another viewer");
      ensureViewer(padded.viewer, { uid: viewer.uid, externalUserId: viewer.externalUserId }, "the padded id's viewer");
      return undefined;
    },
  },
  {
    id: "upsert.case-sensitive",
    title: "externalUserId is case-sensitive: the id in upper case -> another viewer, created: true",
    async run(context) {
      const viewer = await createViewer(context, "case");
      const upper = await upsertOk(context, { externalUserId: viewer.externalUserId.toUpperCase() });
      ensure(upper.created, "created is false: the upper-case id found the lower-case viewer");
      ensure(upper.viewer.uid !== viewer.uid, `both ids have uid ${viewer.uid}`);
      return undefined;
    },
  },
  {
    id: "upsert.create-with-phone-and-name",
    title: "a new externalUserId with an unused phone and a displayName -> created with both, the name trimmed",
    async run(context) {
      const phone = context.phone();
      const viewer = await createViewer(context, "full", { phone, displayName: "  Conformance Viewer " });
      ensureViewer(viewer, { phone, displayName: "Conformance Viewer" }, "the new viewer");
      return undefined;
    },
  },
  {
    id: "upsert.create-blank-phone",
    title: 'a new externalUserId with phone "" -> created without a phone (phone null)',
    async run(context) {
      const viewer = await createViewer(context, "blank", { phone: "" });
      ensureViewer(viewer, { phone: null }, "the new viewer");
      return undefined;
    },
  },
];

const nameChecks: Check[] = [
  {
    id: "upsert.display-name.kept",
    title: "displayName omitted -> the current name is kept",
    async run(context) {
      const viewer = await createViewer(context, "name-kept", { displayName: "Kept Name" });
      ensureViewer(
        await currentViewer(context, viewer.externalUserId),
        { displayName: "Kept Name" },
        "after an upsert without displayName",
      );
      return undefined;
    },
  },
  {
    id: "upsert.display-name.cleared",
    title: "displayName null -> the name is cleared (null)",
    async run(context) {
      const viewer = await createViewer(context, "name-cleared", { displayName: "Cleared Name" });
      const cleared = await upsertOk(context, { externalUserId: viewer.externalUserId, displayName: null });
      ensureViewer(cleared.viewer, { uid: viewer.uid, displayName: null }, "after displayName null");
      return undefined;
    },
  },
];

const bindingChecks: Check[] = [
  {
    id: "upsert.phone.bind",
    title: "an existing viewer and an unused phone -> bound; uid and externalUserId unchanged, created: false",
    async run(context) {
      const viewer = await createViewer(context, "bind");
      const phone = context.phone();
      const bound = await upsertOk(context, { externalUserId: viewer.externalUserId, phone });
      ensure(!bound.created, "created is true when binding a phone");
      ensureViewer(bound.viewer, { uid: viewer.uid, externalUserId: viewer.externalUserId, phone }, "after binding");
      return undefined;
    },
  },
  {
    id: "upsert.phone.idempotent",
    title: "the same externalUserId with its current phone -> idempotent success, the same viewer",
    async run(context) {
      const phone = context.phone();
      const viewer = await createViewer(context, "same-phone", { phone });
      const again = await upsertOk(context, { externalUserId: viewer.externalUserId, phone });
      ensure(!again.created, "created is true on a repeated call");
      ensureViewer(again.viewer, viewer, "the repeated call's viewer");
      return undefined;
    },
  },
  {
    id: "upsert.phone.kept",
    title: "phone omitted, empty or white space only -> the bound phone is kept",
    async run(context) {
      const phone = context.phone();
      const viewer = await createViewer(context, "keep-phone", { phone });
      for (const body of [{}, { phone: "" }, { phone: "   " }]) {
        const result = await upsertOk(context, { externalUserId: viewer.externalUserId, ...body });
        ensureViewer(result.viewer, { phone }, `after an upsert with ${JSON.stringify(body)}`);
      }
      return undefined;
    },
  },
  {
    id: "upsert.phone.null",
    title: "phone null -> 400 REQUEST_INVALID, and the bound phone stays",
    async run(context) {
      const phone = context.phone();
      const viewer = await createViewer(context, "null-phone", { phone });
      expectError(await upsert(context, { externalUserId: viewer.externalUserId, phone: null }), 400, [
        "REQUEST_INVALID",
      ]);
      ensureViewer(await currentViewer(context, viewer.externalUserId), { phone }, "after phone null");
      return undefined;
    },
  },
  {
    id: "upsert.phone.rebind-releases",
    title: "an unused new phone -> rebound, uid unchanged; the old phone is released for another viewer",
    async run(context) {
      const [first, second] = [context.phone(), context.phone()];
      const viewer = await createViewer(context, "rebind", { phone: first });
      const rebound = await upsertOk(context, { externalUserId: viewer.externalUserId, phone: second });
      ensureViewer(
        rebound.viewer,
        { uid: viewer.uid, externalUserId: viewer.externalUserId, phone: second },
        "after rebinding",
      );
      const other = await createViewer(context, "rebind-other", { phone: first });
      ensureViewer(other, { phone: first }, "another viewer binding the released phone");
      return undefined;
    },
  },
];

const conflictChecks: Check[] = [
  {
    id: "upsert.phone.conflict",
    title: "a phone bound to another viewer -> 409 VIEWER_IDENTITY_CONFLICT, nothing modified",
    async run(context) {
      const phone = context.phone();
      await createViewer(context, "holder", { phone });
      const other = await createViewer(context, "claimant", { displayName: "Before" });
      const answer = await upsert(context, { externalUserId: other.externalUserId, phone, displayName: "After" });
      expectError(answer, 409, ["VIEWER_IDENTITY_CONFLICT"]);
      ensureViewer(await currentViewer(context, other.externalUserId), other, "the claimant after the conflict");
      return undefined;
    },
  },
  {
    id: "upsert.phone.conflict-new-id",
    title:
      "a new externalUserId with a phone already in the merchant -> 409 VIEWER_IDENTITY_CONFLICT, no viewer created",
    async run(context) {
      const phone = context.phone();
      await createViewer(context, "first-holder", { phone });
      const externalUserId = context.externalUserId("newcomer");
      expectError(await upsert(context, { externalUserId, phone }), 409, ["VIEWER_IDENTITY_CONFLICT"]);
      const later = await upsertOk(context, { externalUserId });
      ensure(later.created, "the refused externalUserId exists: the conflicting call created a viewer");
      return undefined;
    },
  },
];

export const upsertViewerChecks: Check[] = [...createChecks, ...nameChecks, ...bindingChecks, ...conflictChecks];
