#!/usr/bin/env python3
"""Draws the plots of `make eval` from the data files beacon-eval writes.

Usage: eval_plots.py DATA_DIR OUT_DIR

DATA_DIR holds what beacon-eval wrote (research-*.csv, scene-*-distance.csv, scene-*-regions.csv,
scenes.csv, fleet-*-site.csv, fleet-*-track.csv, results.csv); OUT_DIR gets the PNGs (small: dpi 80,
subsampled points). A part whose data is missing (no research data, no scenes) is skipped with a note.

The real data is the Herald project's "Edison" phone-to-phone RSSI measurements (herald-analysis,
Copyright 2020-2021 Herald Project Contributors, Apache License 2.0).
"""
import csv
import math
import os
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.ticker  # noqa: E402

DPI = 80
DEFAULT = "beacon default"
# One colour per plotted model, beacon's default always the same.
COLOURS = ["#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2"]
TRUTH = "black"
# Beacons per scene plot at most: the first ones (the crowd has 40).
MAX_BEACONS = 4


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def colour_map(models):
    ordered = sorted(set(models), key=lambda m: (m != DEFAULT, models.index(m)))
    return {m: COLOURS[i % len(COLOURS)] for i, m in enumerate(ordered)}


def save(fig, out_dir, name):
    path = os.path.join(out_dir, name)
    fig.savefig(path, dpi=DPI)
    plt.close(fig)
    print(f"wrote {path} ({os.path.getsize(path) // 1024} KiB)")


def research(data_dir, out_dir):
    scatter_path = os.path.join(data_dir, "research-scatter.csv")
    curves_path = os.path.join(data_dir, "research-curves.csv")
    if not (os.path.exists(scatter_path) and os.path.exists(curves_path)):
        print("eval_plots: no research data files; real-data plot skipped")
        return
    points = defaultdict(list)
    for row in read_csv(scatter_path):
        points[row["file"]].append((float(row["distance_m"]), float(row["rssi"])))
    curves = defaultdict(lambda: defaultdict(list))
    calibration = {}
    curve_models = []
    for row in read_csv(curves_path):
        curves[row["file"]][row["model"]].append((float(row["distance_m"]), float(row["rssi"])))
        calibration[row["file"]] = (row["measured_power"], row["fitted_n"])
        if row["model"] not in curve_models:
            curve_models.append(row["model"])
    files = sorted(points)
    if not files:
        return
    colours = {m: COLOURS[i % len(COLOURS)] for i, m in enumerate(curve_models)}
    columns = 5
    rows = math.ceil(len(files) / columns)
    fig, axes = plt.subplots(rows, columns, figsize=(15, 3.4 * rows + 1), sharex=True, squeeze=False)
    x_max = max(d for f in files for d, _ in points[f]) * 1.05
    for ax, name in zip(axes.flat, files):
        xs, ys = zip(*points[name])
        ax.scatter(xs, ys, s=3, alpha=0.25, color="grey", linewidths=0)
        medians = defaultdict(list)
        for d, r in points[name]:
            medians[d].append(r)
        md = sorted(medians)
        ax.plot(md, [sorted(medians[d])[len(medians[d]) // 2] for d in md], ".", color="black", markersize=2)
        for model, curve in curves[name].items():
            curve = [(d, r) for d, r in curve if d <= x_max]
            if curve:
                ax.plot([d for d, _ in curve], [r for _, r in curve], color=colours[model], linewidth=1.3)
        power, fitted = calibration.get(name, ("?", ""))
        ax.set_title(f"{name}\n1 m: {power} dBm" + (f", fitted n = {fitted}" if fitted else ""), fontsize=9)
        ax.set_xlim(0, x_max)
        ax.grid(alpha=0.3)
    for ax in axes.flat[len(files):]:
        ax.axis("off")
    for ax in axes[-1]:
        ax.set_xlabel("distance (m)")
    for ax in axes[:, 0]:
        ax.set_ylabel("RSSI (dBm)")
    handles = [plt.Line2D([], [], color=colours[m], label=m) for m in curve_models]
    handles.append(plt.Line2D([], [], color="black", marker=".", linestyle="", label="median RSSI per position"))
    fig.legend(handles=handles, loc="lower center", ncol=3, fontsize=9, frameon=False)
    fig.suptitle("Real phone-to-phone RSSI vs distance (Herald 'Edison' data, subsampled) and each model's "
                 "distance curve at the file's own 1 m calibration", fontsize=11)
    fig.tight_layout(rect=(0, 0.08, 1, 0.95))
    save(fig, out_dir, "research-rssi-distance.png")


def scene(data_dir, out_dir, name, summary):
    distance_path = os.path.join(data_dir, f"scene-{name}-distance.csv")
    regions_path = os.path.join(data_dir, f"scene-{name}-regions.csv")
    if not (os.path.exists(distance_path) and os.path.exists(regions_path)):
        print(f"eval_plots: no data for scene {name}; skipped")
        return
    series = defaultdict(lambda: ([], [], []))
    models = []
    for row in read_csv(distance_path):
        b = int(row["beacon"])
        if b >= MAX_BEACONS:
            continue
        if row["model"] not in models:
            models.append(row["model"])
        t, truth, est = series[(row["model"], b)]
        t.append(float(row["elapsed_s"]))
        truth.append(float(row["true_m"]) if row["true_m"] else math.nan)
        est.append(float(row["estimate_m"]) if row["estimate_m"] else math.nan)
    states = defaultdict(lambda: ([], [], []))
    regions = []
    for row in read_csv(regions_path):
        if row["region"] not in regions:
            regions.append(row["region"])
        t, truth, state = states[(row["model"], row["region"])]
        t.append(float(row["elapsed_s"]))
        truth.append(row["truth_inside"] == "1")
        state.append(row["state"])
    colours = colour_map(models)
    beacons = sorted({b for _, b in series})
    fig, axes = plt.subplots(len(beacons) + 1, 1, figsize=(10, 2.1 * len(beacons) + 1.2 + 0.35 * len(regions)),
                             sharex=True, squeeze=False,
                             gridspec_kw={"height_ratios": [3] * len(beacons) + [0.6 + 0.45 * len(regions)]})
    axes = axes[:, 0]
    for ax, b in zip(axes, beacons):
        t, truth, _ = series[(models[0], b)]
        for model in models:
            mt, _, est = series[(model, b)]
            ax.plot(mt, est, color=colours[model], linewidth=1.0 if model == DEFAULT else 0.7,
                    alpha=1.0 if model == DEFAULT else 0.75, label=model)
        ax.plot(t, truth, color=TRUTH, linewidth=1.6, label="true distance")
        ax.set_yscale("log")
        ax.yaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:g}"))
        ax.yaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
        ax.set_ylabel(f"beacon {b}\ndistance (m)", fontsize=9)
        ax.grid(alpha=0.3, which="both")
    axes[0].legend(loc="lower left", bbox_to_anchor=(0, 1.0), fontsize=8, ncol=5, frameon=False)
    ax = axes[-1]
    lane = 1.0 / (len(models) + 1)
    for i, region in enumerate(regions):
        t, truth, _ = states[(models[0], region)]
        ax.fill_between(t, i, [i + 0.9 if x else i for x in truth], step="post", color="#cccccc", linewidth=0)
        for j, model in enumerate(models):
            mt, _, state = states[(model, region)]
            y = i + (j + 0.5) * lane * 0.9
            inside = [y if s == "inside" else math.nan for s in state]
            ax.plot(mt, inside, color=colours[model], linewidth=2.2, drawstyle="steps-post")
    ax.set_yticks([i + 0.45 for i in range(len(regions))])
    ax.set_yticklabels(regions, fontsize=8)
    ax.set_ylim(0, len(regions))
    ax.set_xlabel("time (s)")
    ax.set_title("region inside: truth (grey band) and each model's monitor state (coloured lines)", fontsize=9)
    fig.suptitle(f"scene {name}: {summary}", fontsize=10, wrap=True)
    fig.tight_layout(rect=(0, 0, 1, 0.95))
    save(fig, out_dir, f"scene-{name}.png")


# The rules a fleet plot draws, in its legend's order; the first is beacon's.
FLEET_RULES = ["beacon locate", "ESPresense centroid", "Bermuda", "mqtt_room"]
FLEET_COLOURS = {"beacon locate": "#d62728", "ESPresense centroid": "#1f77b4", "Bermuda": "#2ca02c", "mqtt_room": "#ff7f0e"}


def fleet(data_dir, out_dir, name):
    """The floor plan with the first beacon's true track and the tracks of the rules that place it, and
    each rule's room over time beside the truth's."""
    plan = read_csv(os.path.join(data_dir, f"fleet-{name}-site.csv"))
    rows = [row for row in read_csv(os.path.join(data_dir, f"fleet-{name}-track.csv"))]
    beacon = min(row["beacon"] for row in rows)
    track = defaultdict(list)
    for row in rows:
        if row["beacon"] == beacon and row["rule"] in FLEET_RULES:
            track[row["rule"]].append(row)
    shapes = defaultdict(list)
    for row in plan:
        shapes[(row["kind"], row["name"])].append((float(row["x"]), float(row["y"])))
    rooms = [name for (kind, name) in shapes if kind == "room"]
    fig, (floor, timeline) = plt.subplots(1, 2, figsize=(13, 5), gridspec_kw={"width_ratios": [1, 1.4]})
    for (kind, label), points in shapes.items():
        xs, ys = zip(*points)
        if kind == "room":
            floor.fill(xs, ys, color="#f2f2f2", edgecolor="#999999", linewidth=0.8)
            floor.text(sum(xs) / len(xs), sum(ys) / len(ys), label, ha="center", va="center", fontsize=8, color="#666666")
        elif kind == "wall":
            floor.plot(xs, ys, color="#555555", linewidth=2.5)
        else:
            floor.plot(xs, ys, marker="^", color="#444444", markersize=7, linestyle="none")
            floor.annotate(label, (xs[0], ys[0]), fontsize=6, xytext=(3, 3), textcoords="offset points")
    truth = track[FLEET_RULES[0]]
    # A beacon that leaves the site is drawn while it is on the plan.
    inside = [row for row in truth if row["truth_room"]]
    floor.plot([float(r["truth_x"]) for r in inside], [float(r["truth_y"]) for r in inside], color=TRUTH, linewidth=2,
               label="true track")
    for rule in FLEET_RULES:
        placed = [row for row in track[rule] if row["x"] and row["truth_room"]]
        if placed:
            floor.plot([float(r["x"]) for r in placed], [float(r["y"]) for r in placed], color=FLEET_COLOURS[rule],
                       linewidth=1.0 if rule == FLEET_RULES[0] else 0.7, alpha=0.9 if rule == FLEET_RULES[0] else 0.6,
                       label=rule)
    floor.set_aspect("equal")
    floor.legend(fontsize=7, loc="upper left", bbox_to_anchor=(0, -0.08), ncol=3, frameon=False)
    floor.set_title("floor plan (m): gateways, walls, tracks", fontsize=9)
    # The plan holds floor 0; rooms of other floors (the truth's or a rule's) get lanes after its rooms.
    others = []
    for row in rows:
        for room in (row["truth_room"], row["room"]):
            if room and room not in rooms and room not in others:
                others.append(room)
    lanes = rooms + others + ["none"]
    lane_of = {room: i for i, room in enumerate(lanes)}
    step = max(1, len(truth) // 1500)
    times = [float(r["elapsed_s"]) for r in truth][::step]
    timeline.plot(times, [lane_of[r["truth_room"] or "none"] for r in truth][::step], color=TRUTH, linewidth=3,
                  drawstyle="steps-post", label="true room")
    for j, rule in enumerate(FLEET_RULES):
        offset = 0.12 * (j + 1)
        series = track[rule][::step]
        timeline.plot([float(r["elapsed_s"]) for r in series],
                      [lane_of.get(r["room"], len(lanes) - 1) + offset if r["room"] or r["x"] else math.nan for r in series],
                      color=FLEET_COLOURS[rule], linewidth=1.2, drawstyle="steps-post", label=rule)
    timeline.set_yticks(range(len(lanes)))
    timeline.set_yticklabels(lanes, fontsize=8)
    timeline.set_xlabel("time (s)")
    timeline.set_title("room over time: the truth and each rule (offset a little for legibility)", fontsize=9)
    timeline.legend(fontsize=7, loc="upper left", bbox_to_anchor=(0, -0.12), ncol=5, frameon=False)
    timeline.grid(alpha=0.3)
    fig.suptitle(f"fleet {name}: beacon {beacon}", fontsize=10)
    fig.tight_layout(rect=(0, 0, 1, 0.95))
    save(fig, out_dir, f"fleet-{name}.png")


def summary(data_dir, out_dir):
    path = os.path.join(data_dir, "results.csv")
    if not os.path.exists(path):
        return
    rows = read_csv(path)
    datasets = []
    models = []
    values = {}
    for row in rows:
        if row["metric"] != "med err m":
            continue
        if row["dataset"] not in datasets:
            datasets.append(row["dataset"])
        if row["model"] not in models:
            models.append(row["model"])
        values[(row["dataset"], row["model"])] = float(row["value"])
    if not datasets:
        return
    fig, ax = plt.subplots(figsize=(12, 5))
    width = 0.8 / len(models)
    colours = {m: plt.cm.tab20(i % 20) for i, m in enumerate(models)}
    for j, model in enumerate(models):
        xs = [i + (j - len(models) / 2) * width + width / 2 for i in range(len(datasets))]
        ys = [values.get((d, model), math.nan) for d in datasets]
        ax.bar(xs, ys, width, label=model, color=colours[model],
               edgecolor="black" if model == DEFAULT else "none", linewidth=1.2)
    ax.set_xticks(range(len(datasets)))
    ax.set_xticklabels(datasets, rotation=30, ha="right", fontsize=8)
    ax.set_ylabel("median |error| (m)")
    ax.set_yscale("log")
    ax.set_title("Median distance error per dataset and model (lower is better; beacon default outlined)")
    ax.legend(fontsize=7, ncol=2)
    ax.grid(alpha=0.3, axis="y", which="both")
    fig.tight_layout()
    save(fig, out_dir, "summary-median-error.png")


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: eval_plots.py DATA_DIR OUT_DIR")
    data_dir, out_dir = sys.argv[1], sys.argv[2]
    os.makedirs(out_dir, exist_ok=True)
    research(data_dir, out_dir)
    scenes_path = os.path.join(data_dir, "scenes.csv")
    if os.path.exists(scenes_path):
        for row in read_csv(scenes_path):
            scene(data_dir, out_dir, row["scene"], row["summary"])
    else:
        print("eval_plots: no scenes.csv; scene plots skipped")
    fleets = sorted(name[len("fleet-"):-len("-site.csv")] for name in os.listdir(data_dir)
                    if name.startswith("fleet-") and name.endswith("-site.csv"))
    for name in fleets:
        fleet(data_dir, out_dir, name)
    if not fleets:
        print("eval_plots: no fleet data; fleet plots skipped")
    summary(data_dir, out_dir)


if __name__ == "__main__":
    main()
