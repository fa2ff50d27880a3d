/** An OWNER invites a person by email with a role; the answer's link is shown once by the page (invite-link-panel). */
import { type FormEvent, useState } from "react";
import { useIntl } from "react-intl";
import { consoleApi, type Role } from "../../api/console-api";
import { ErrorMessage } from "../../components/error-message";
import type { InviteLink } from "./invite-link-panel";

export function InviteForm({ onInvited }: { onInvited(link: InviteLink): void }) {
  const { formatMessage } = useIntl();
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("ANALYST");
  const invite = consoleApi.useMutation("post", "/console/api/people");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const address = email.trim();
    invite.mutate(
      { body: { email: address, role } },
      {
        onSuccess: (answer) => {
          setEmail("");
          onInvited({ email: address, inviteUrl: answer.inviteUrl, expiresAt: answer.expiresAt });
        },
      },
    );
  };
  return (
    <section className="panel" aria-labelledby="invite-title">
      <h2 id="invite-title">{formatMessage({ id: "people.inviteTitle" })}</h2>
      <form onSubmit={submit} className="filters">
        <div>
          <label htmlFor="invite-email">{formatMessage({ id: "people.email" })}</label>
          <input
            id="invite-email"
            type="email"
            autoComplete="off"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </div>
        <div>
          <label htmlFor="invite-role">{formatMessage({ id: "people.role" })}</label>
          <select id="invite-role" value={role} onChange={(e) => setRole(e.target.value as Role)}>
            <option value="ANALYST">{formatMessage({ id: "role.ANALYST" })}</option>
            <option value="OWNER">{formatMessage({ id: "role.OWNER" })}</option>
          </select>
        </div>
        <div className="actions">
          <button type="submit" disabled={invite.isPending}>
            {formatMessage({ id: "people.invite" })}
          </button>
        </div>
      </form>
      <p className="hint">{formatMessage({ id: "people.roleHint" })}</p>
      {invite.isError ? <ErrorMessage error={invite.error} /> : null}
    </section>
  );
}
