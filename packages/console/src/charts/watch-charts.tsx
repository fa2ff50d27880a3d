/**
 * The watch data's charts for one mode: concurrent viewers per minute (getConcurrencySeries), how long subjects
 * watched (getWatchTimeDistribution), and sessions by device and by protocol (getDeviceBreakdown). Loaded lazily
 * with ECharts. Each chart has its figures as a table too, for screen readers and for copying.
 */
import type { ReactNode } from "react";
import { consoleApi, type Mode } from "../api/console-api";
import { ErrorMessage } from "../components/error-message";
import { useIntl } from "react-intl";
import { type ChartOption, EChart } from "./echart";

interface ChartsProps {
  ticketCode: string;
  mode: Mode;
  refreshMs: number | false;
}

const GRID = { left: 48, right: 16, top: 24, bottom: 40 };

function ChartFigure({
  title,
  name,
  option,
  rows,
}: {
  title: string;
  name: string;
  option: ChartOption;
  rows: [string, string][];
}) {
  const { formatMessage } = useIntl();
  return (
    <figure className="card chart-figure">
      <figcaption>
        <h3>{title}</h3>
      </figcaption>
      <EChart name={name} option={option} label={title} />
      <details>
        <summary>{formatMessage({ id: "charts.asTable" }, { title })}</summary>
        <table className="compact">
          <tbody>
            {rows.map(([label, value]) => (
              <tr key={label}>
                <th scope="row">{label}</th>
                <td>{value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}

function barOption(categories: string[], seriesName: string, values: number[], horizontal = false): ChartOption {
  const category = { type: "category" as const, data: categories };
  const value = { type: "value" as const, minInterval: 1 };
  return {
    grid: { ...GRID, left: horizontal ? 96 : GRID.left },
    xAxis: horizontal ? value : category,
    yAxis: horizontal ? category : value,
    series: [{ type: "bar", name: seriesName, data: values }],
  };
}

export default function WatchCharts({ ticketCode, mode, refreshMs }: ChartsProps) {
  const { formatMessage, formatNumber, formatTime } = useIntl();
  const init = { params: { path: { ticketCode }, query: { mode } } };
  const options = { refetchInterval: refreshMs };
  const concurrency = consoleApi.useQuery("get", "/console/api/webinars/{ticketCode}/watch/concurrency", init, options);
  const distribution = consoleApi.useQuery(
    "get",
    "/console/api/webinars/{ticketCode}/watch/watch-time-distribution",
    init,
    options,
  );
  const devices = consoleApi.useQuery("get", "/console/api/webinars/{ticketCode}/watch/devices", init, options);

  const figures: ReactNode[] = [];
  if (concurrency.data !== undefined) {
    const points = concurrency.data.points;
    const minutes = points.map((point) => formatTime(point.minute, { hour: "2-digit", minute: "2-digit" }));
    const viewers = points.map((point) => point.viewers);
    figures.push(
      <ChartFigure
        key="concurrency"
        name="concurrency"
        title={formatMessage({ id: "charts.concurrency" })}
        option={{
          grid: GRID,
          xAxis: { type: "category", data: minutes, boundaryGap: false },
          yAxis: { type: "value", minInterval: 1 },
          series: [
            {
              type: "line",
              name: formatMessage({ id: "charts.viewers" }),
              data: viewers,
              step: "middle",
              areaStyle: {},
              showSymbol: false,
            },
          ],
        }}
        rows={points.map((point, index) => [minutes[index] ?? point.minute, formatNumber(point.viewers)])}
      />,
    );
  }
  if (distribution.data !== undefined) {
    const buckets = distribution.data.buckets;
    const minutes = (seconds: number) => formatNumber(seconds / 60);
    const labels = buckets.map((bucket) =>
      bucket.maxSeconds === null
        ? formatMessage({ id: "charts.bucketOver" }, { min: minutes(bucket.minSeconds) })
        : formatMessage({ id: "charts.bucket" }, { min: minutes(bucket.minSeconds), max: minutes(bucket.maxSeconds) }),
    );
    const subjects = buckets.map((bucket) => bucket.subjects);
    figures.push(
      <ChartFigure
        key="distribution"
        name="distribution"
        title={formatMessage({ id: "charts.distribution" })}
        option={barOption(labels, formatMessage({ id: "charts.subjects" }), subjects)}
        rows={labels.map((label, index) => [label, formatNumber(subjects[index] ?? 0)])}
      />,
    );
  }
  if (devices.data !== undefined)
    for (const [name, entries, title] of [
      ["devices", devices.data.deviceTypes, formatMessage({ id: "charts.devices" })],
      ["protocols", devices.data.protocols, formatMessage({ id: "charts.protocols" })],
    ] as const) {
      const names = entries.map((entry) => entry.name);
      const sessions = entries.map((entry) => entry.sessions);
      figures.push(
        <ChartFigure
          key={name}
          name={name}
          title={title}
          option={barOption(names, formatMessage({ id: "charts.sessions" }), sessions, true)}
          rows={names.map((label, index) => [label, formatNumber(sessions[index] ?? 0)])}
        />,
      );
    }
  const failed = [concurrency, distribution, devices].find((query) => query.isError);
  return (
    <>
      {failed === undefined ? null : <ErrorMessage error={failed.error} />}
      <div className="charts">{figures}</div>
    </>
  );
}
