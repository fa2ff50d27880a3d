/**
 * One ECharts chart, drawn on a canvas in a container sized by CSS. Only the parts of ECharts these charts use are
 * registered (line and bar charts, grid, tooltip), which keeps the lazily loaded chunk smaller. The tooltip renders
 * as rich text on the canvas, never as HTML. After each draw the container carries, in `data-chart`, the
 * categories and series the chart itself holds (read back with getOption), so what is drawn can be checked.
 */
import { BarChart, LineChart } from "echarts/charts";
import { GridComponent, TooltipComponent } from "echarts/components";
import { type ComposeOption, init, use } from "echarts/core";
import type { BarSeriesOption, LineSeriesOption } from "echarts/charts";
import type { GridComponentOption, TooltipComponentOption } from "echarts/components";
import { CanvasRenderer } from "echarts/renderers";
import { useEffect, useRef } from "react";

use([BarChart, LineChart, GridComponent, TooltipComponent, CanvasRenderer]);

export type ChartOption = ComposeOption<
  BarSeriesOption | LineSeriesOption | GridComponentOption | TooltipComponentOption
>;

interface DrawnChart {
  categories: unknown[];
  series: { name: unknown; data: unknown[] }[];
}

/** What the chart holds, from its own option after setOption. */
function readBack(option: Record<string, unknown>): DrawnChart {
  const axes = [
    ...((option.xAxis as { data?: unknown[] }[]) ?? []),
    ...((option.yAxis as { data?: unknown[] }[]) ?? []),
  ];
  const categories = axes.find((axis) => Array.isArray(axis.data))?.data ?? [];
  const series = ((option.series as { name?: unknown; data?: unknown[] }[]) ?? []).map((item) => ({
    name: item.name,
    data: item.data ?? [],
  }));
  return { categories, series };
}

export function EChart({ name, option, label }: { name: string; option: ChartOption; label: string }) {
  const container = useRef<HTMLDivElement>(null);
  const chart = useRef<ReturnType<typeof init> | null>(null);
  useEffect(() => {
    const element = container.current;
    if (element === null) return;
    const instance = init(element, null, { renderer: "canvas" });
    chart.current = instance;
    const resize = new ResizeObserver(() => instance.resize());
    resize.observe(element);
    return () => {
      resize.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, []);
  useEffect(() => {
    const instance = chart.current;
    const element = container.current;
    if (instance === null || element === null) return;
    instance.setOption({ ...option, tooltip: { trigger: "axis", renderMode: "richText" } }, { notMerge: true });
    element.dataset.chart = JSON.stringify(readBack(instance.getOption() as Record<string, unknown>));
  }, [option]);
  return <div ref={container} className="chart" role="img" aria-label={label} data-chart-name={name} />;
}
