/**
 * The merchant's team, run by its OWNERs: everyone invited or active, with their role and two-step sign-in; invite
 * a person with a role (the link shown once), a new link for someone who has not accepted yet, another role,
 * removal (after a confirmation), and the merchant's requirement of two-step sign-in. The server keeps an OWNER
 * (409 CONSOLE_LAST_OWNER), and the page shows its refusal as it came. An ANALYST sees the list only.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useIntl } from "react-intl";
import { consoleApi, type Person } from "../../api/console-api";
import { meQuery, useCanChange, useMe } from "../../api/session";
import { ConfirmDialog } from "../../components/confirm-dialog";
import { ErrorMessage } from "../../components/error-message";
import { usePageTitle } from "../../components/use-page-title";
import { InviteForm } from "./invite-form";
import { type InviteLink, InviteLinkPanel } from "./invite-link-panel";
import { PeopleTable } from "./people-table";
import { TwoFactorRequirementSwitch } from "./two-factor-requirement-switch";

export function PeoplePage() {
  const { formatMessage } = useIntl();
  const canChange = useCanChange();
  const myId = useMe().data?.userId;
  const queryClient = useQueryClient();
  const people = consoleApi.useQuery("get", "/console/api/people");
  const [link, setLink] = useState<InviteLink | null>(null);
  const [removing, setRemoving] = useState<Person | null>(null);
  // Every change shows in the list, and may change the signed-in person (their own role, their removal).
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: consoleApi.queryOptions("get", "/console/api/people").queryKey }),
      queryClient.invalidateQueries({ queryKey: meQuery.queryKey }),
    ]);
  const renew = consoleApi.useMutation("post", "/console/api/people/{userId}/invite");
  const changeRole = consoleApi.useMutation("post", "/console/api/people/{userId}/role", { onSuccess: refresh });
  const remove = consoleApi.useMutation("post", "/console/api/people/{userId}/remove", {
    onSuccess: () => {
      setRemoving(null);
      void refresh();
    },
  });
  usePageTitle(formatMessage({ id: "people.title" }));

  const renewFor = (person: Person) => {
    changeRole.reset();
    renew.mutate(
      { params: { path: { userId: person.userId } }, body: {} },
      {
        onSuccess: (answer) => {
          setLink({ email: person.email, inviteUrl: answer.inviteUrl, expiresAt: answer.expiresAt });
          void refresh();
        },
      },
    );
  };

  return (
    <>
      <h1>{formatMessage({ id: "people.title" })}</h1>
      <p className="lead">{formatMessage({ id: "people.intro" })}</p>
      {canChange ? null : <p className="hint">{formatMessage({ id: "common.readOnly" })}</p>}
      {canChange && people.data !== undefined ? (
        <TwoFactorRequirementSwitch required={people.data.twoFactorRequired} onChanged={refresh} />
      ) : null}
      {canChange ? (
        <InviteForm
          onInvited={(invited) => {
            setLink(invited);
            void refresh();
          }}
        />
      ) : null}
      {link === null ? null : <InviteLinkPanel link={link} onDone={() => setLink(null)} />}
      <section aria-labelledby="people-list-title">
        <h2 id="people-list-title">{formatMessage({ id: "people.listTitle" })}</h2>
        {people.isError ? <ErrorMessage error={people.error} /> : null}
        {changeRole.isError ? <ErrorMessage error={changeRole.error} /> : null}
        {renew.isError ? <ErrorMessage error={renew.error} /> : null}
        {people.data === undefined ? null : (
          <PeopleTable
            people={people.data.items}
            myId={myId}
            canChange={canChange}
            busy={changeRole.isPending || renew.isPending}
            onRole={(person, role) => {
              renew.reset();
              changeRole.mutate({ params: { path: { userId: person.userId } }, body: { role } });
            }}
            onRenew={renewFor}
            onRemove={(person) => {
              remove.reset();
              setRemoving(person);
            }}
          />
        )}
      </section>
      <ConfirmDialog
        open={removing !== null}
        title={formatMessage({ id: "people.removeTitle" }, { email: removing?.email ?? "" })}
        confirmLabel={formatMessage({ id: "people.remove" })}
        busy={remove.isPending}
        onConfirm={() =>
          removing !== null && remove.mutate({ params: { path: { userId: removing.userId } }, body: {} })
        }
        onCancel={() => setRemoving(null)}
      >
        <p>{formatMessage({ id: "people.removeExplain" })}</p>
        {remove.isError ? <ErrorMessage error={remove.error} /> : null}
      </ConfirmDialog>
    </>
  );
}
