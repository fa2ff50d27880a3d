/** The people of the merchant as a data table, with an OWNER's controls for each. */
import { useIntl } from "react-intl";
import type { Person, Role } from "../../api/console-api";
import { type Column, DataTable } from "../../components/data-table";

export interface PeopleTableProps {
  people: Person[];
  myId: string | undefined;
  canChange: boolean;
  busy: boolean;
  onRole(person: Person, role: Role): void;
  onRenew(person: Person): void;
  onRemove(person: Person): void;
}

export function PeopleTable({ people, myId, canChange, busy, onRole, onRenew, onRemove }: PeopleTableProps) {
  const { formatMessage } = useIntl();
  const status = (person: Person) => {
    if (person.status === "ACTIVE") return formatMessage({ id: "people.statusActive" });
    const expiresAt = person.inviteExpiresAt === null ? null : new Date(person.inviteExpiresAt);
    return expiresAt === null || expiresAt.getTime() < Date.now()
      ? formatMessage({ id: "people.statusExpired" })
      : formatMessage({ id: "people.statusInvited" }, { at: expiresAt });
  };
  const columns: Column<Person>[] = [
    {
      header: "people.email",
      cell: (person) => (
        <>
          {person.email}
          {person.userId === myId ? <span className="hint"> {formatMessage({ id: "people.you" })}</span> : null}
        </>
      ),
    },
    { header: "people.role", cell: (person) => formatMessage({ id: `role.${person.role}` }) },
    {
      header: "people.status",
      cell: (person) => (
        <span className={`badge ${person.status === "ACTIVE" ? "ok" : "muted"}`}>{status(person)}</span>
      ),
    },
    {
      header: "people.twoFactor",
      cell: (person) => formatMessage({ id: person.twoFactor ? "people.twoFactorOn" : "people.twoFactorOff" }),
    },
  ];
  const actions: Column<Person> = {
    header: "common.actions",
    cell: (person) => {
      const otherRole: Role = person.role === "OWNER" ? "ANALYST" : "OWNER";
      return (
        <div className="actions">
          <button
            type="button"
            className="secondary"
            disabled={busy}
            onClick={() => onRole(person, otherRole)}
            aria-label={formatMessage({ id: `people.make${otherRole}Label` }, { email: person.email })}
          >
            {formatMessage({ id: `people.make${otherRole}` })}
          </button>
          {person.status === "INVITED" ? (
            <button
              type="button"
              className="secondary"
              disabled={busy}
              onClick={() => onRenew(person)}
              aria-label={formatMessage({ id: "people.renewLabel" }, { email: person.email })}
            >
              {formatMessage({ id: "people.renew" })}
            </button>
          ) : null}
          <button
            type="button"
            className="danger"
            onClick={() => onRemove(person)}
            aria-label={formatMessage({ id: "people.removeLabel" }, { email: person.email })}
          >
            {formatMessage({ id: "people.remove" })}
          </button>
        </div>
      );
    },
  };
  return (
    <DataTable
      rows={people}
      rowKey={(person) => person.userId}
      rowData={(person) => ({ "data-email": person.email })}
      caption="people.listTitle"
      columns={canChange ? [...columns, actions] : columns}
    />
  );
}
