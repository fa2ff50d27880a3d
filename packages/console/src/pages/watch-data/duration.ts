import { useIntl } from "react-intl";

/** Seconds of watch time in words of the chosen language: `1 h 5 min`, `4 min 10 s`, `42 s`. */
export function useDuration(): (seconds: number) => string {
  const { formatMessage } = useIntl();
  return (total) => {
    const hours = Math.floor(total / 3600);
    const minutes = Math.floor((total % 3600) / 60);
    const seconds = total % 60;
    if (hours > 0) return formatMessage({ id: "duration.hoursMinutes" }, { hours, minutes });
    if (minutes > 0) return formatMessage({ id: "duration.minutesSeconds" }, { minutes, seconds });
    return formatMessage({ id: "duration.seconds" }, { seconds });
  };
}
