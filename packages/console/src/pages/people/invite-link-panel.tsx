/**
 * A new invite link, shown once right after invitePerson or renewInvite: the OWNER copies it and hands it to the
 * person, who chooses a password there. The server keeps only a hash of it, so it cannot be shown again.
 */
import { useIntl } from "react-intl";
import { CopyButton } from "../../components/copy-button";

export interface InviteLink {
  email: string;
  inviteUrl: string;
  expiresAt: string;
}

export function InviteLinkPanel({ link, onDone }: { link: InviteLink; onDone(): void }) {
  const { formatMessage } = useIntl();
  return (
    <section className="panel notice" aria-labelledby="invite-link-title">
      <h2 id="invite-link-title">{formatMessage({ id: "people.linkTitle" }, { email: link.email })}</h2>
      <p>{formatMessage({ id: "people.linkOnce" }, { at: new Date(link.expiresAt) })}</p>
      <p>
        <code data-testid="invite-url" className="secret break-anywhere">
          {link.inviteUrl}
        </code>
      </p>
      <div className="actions">
        <CopyButton text={link.inviteUrl} label={formatMessage({ id: "people.copyLink" })} />
        <button type="button" onClick={onDone}>
          {formatMessage({ id: "people.linkDone" })}
        </button>
      </div>
    </section>
  );
}
