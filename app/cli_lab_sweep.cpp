// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_lab_sweep.h"

#include "cli_export.h"
#include "cli_i18n.h"
#include "cli_lab_process.h"
#include "cli_options.h"
#include "export/figure_export.h"
#include "io/input_file.h"
#include "io/number_text.h"
#include "io/safe_write.h"
#include "lab/lab.h"
#include "lab_options.h"
#include "views/curve_chart.h"

#include <nlohmann/json.hpp>

#include <QPainter>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <ostream>
#include <sstream>

namespace posatlas::cli {

namespace {

namespace fs = std::filesystem;

std::vector<std::string> split(const std::string& text)
{
    std::vector<std::string> items;
    std::stringstream ss(text);
    for (std::string item; std::getline(ss, item, ',');)
        items.push_back(item);
    return items;
}

std::string number(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

// The figure: mean answer accuracy against length per encoding, the lowest and highest seed dashed in the
// same colour, the trained length as a vertical marker.
class SweepFigure : public ui::Figure
{
public:
    explicit SweepFigure(ui::CurveData d) : m_data(std::move(d)) {}
    void renderFigure(QPainter& painter, const QRectF& target,
                      const ui::RenderOptions& options) const override
    {
        ui::render_curve_chart(m_data, m_data.log_x, painter, target, {options.dark, options.font_scale, {}},
                               true);
    }
    QString figureTitle() const override { return m_data.title; }

private:
    ui::CurveData m_data;
};

ui::CurveData sweep_curves(const nlohmann::json& sweep)
{
    ui::CurveData d;
    const std::string task = sweep["task"];
    const std::int64_t trained = sweep["train_len"];
    d.title =
        QString::fromStdString(arg(translate("Cli", "Answer accuracy against length (%1, trained at %2)"),
                                   {task, std::to_string(trained)}));
    d.x_label = QString::fromStdString(translate("Cli", "sequence length (tokens)"));
    d.y_label = QString::fromStdString(translate("Cli", "answer accuracy"));
    d.x_column = "length";
    d.y_column = "accuracy";
    d.log_x = true;
    int index = 0;
    for (const auto& m : sweep["methods"]) {
        std::map<std::int64_t, std::vector<double>> at; // length -> accuracy of each seed
        for (const auto& r : sweep["rows"])
            if (r["method"] == m && r.contains("accuracy"))
                at[r["length"].get<std::int64_t>()].push_back(r["accuracy"].get<double>());
        ui::CurveSeries mean, lo, hi;
        mean.name = QString::fromStdString(m.get<std::string>());
        lo.name = QString::fromStdString(arg(translate("Cli", "%1 (lowest and highest seed)"), {m}));
        for (const auto& [length, values] : at) {
            double sum = 0;
            for (double v : values)
                sum += v;
            mean.x.push_back(static_cast<double>(length));
            mean.y.push_back(sum / static_cast<double>(values.size()));
            lo.x.push_back(static_cast<double>(length));
            lo.y.push_back(*std::min_element(values.begin(), values.end()));
            hi.x.push_back(static_cast<double>(length));
            hi.y.push_back(*std::max_element(values.begin(), values.end()));
        }
        mean.color_index = lo.color_index = hi.color_index = index++;
        lo.dashed = hi.dashed = true;
        hi.name = lo.name;
        mean.id = QString::fromStdString(m.get<std::string>());
        d.series.push_back(mean);
        if (sweep["seeds"].get<int>() > 1) {
            d.series.push_back(lo);
            d.series.push_back(hi);
        }
    }
    d.markers.push_back(
        {static_cast<double>(trained),
         QString::fromStdString(arg(translate("Cli", "trained %1"), {std::to_string(trained)})), true});
    return d;
}

} // namespace

int run_lab_sweep(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    const Options o(args, lab_sweep_table());
    const std::string dir = *o.text("out");
    const std::vector<std::string> methods = split(*o.text("methods"));
    const auto& known = lab::lab_methods();
    if (methods.empty())
        throw ParameterError("methods",
                             "a comma-separated list of " + join(known, "|", [](auto& s) { return s; }),
                             *o.text("methods"));
    for (const std::string& m : methods)
        if (std::find(known.begin(), known.end(), m) == known.end() ||
            std::count(methods.begin(), methods.end(), m) > 1)
            throw ParameterError("methods",
                                 "a comma-separated list of distinct " +
                                     join(known, "|", [](auto& s) { return s; }),
                                 *o.text("methods"));
    const int seeds = static_cast<int>(*o.integer("seeds"));
    const std::vector<double> lengths = *o.real_list("lengths");
    std::string length_list;
    for (std::size_t i = 0; i < lengths.size(); ++i) {
        if (lengths[i] != std::floor(lengths[i]) || lengths[i] < 4 || lengths[i] > 1 << 20 ||
            (i > 0 && lengths[i] <= lengths[i - 1]))
            throw ParameterError("lengths", "increasing integers in [4, 1048576]", *o.text("lengths"));
        length_list += (i ? "," : "") + format_number(lengths[i]);
    }
    // Each run's lab train command line, checked before anything runs.
    std::vector<std::string> common;
    for (const OptionSpec& s : lab_train_table())
        if (s.name != "out" && s.name != "method" && s.name != "seed" && s.type != ArgType::Flag &&
            o.has(s.name))
            common.insert(common.end(), {"--" + s.name, *o.text(s.name)});
    common.push_back("--quiet");
    const bool quiet = o.flag("quiet");
    struct Run {
        std::string method;
        int seed;
        fs::path folder;
        std::vector<std::string> train;
    };
    std::vector<Run> runs;
    for (const std::string& m : methods)
        for (int s = 0; s < seeds; ++s) {
            Run r{m, s, fs::path(dir) / m / ("seed-" + std::to_string(s)), {}};
            r.train = {"--method", m, "--seed", std::to_string(s), "--out", r.folder.string()};
            r.train.insert(r.train.end(), common.begin(), common.end());
            const Options check(r.train, lab_train_table());
            lab_config_from(check); // ParameterError naming the option
            r.train.insert(r.train.begin(), "train");
            runs.push_back(std::move(r));
        }
    std::string task = *o.choice("task");
    nlohmann::json sweep{
        {"task", task},   {"train_len", *o.integer("train-len")}, {"methods", methods},
        {"seeds", seeds}, {"lengths", nlohmann::json::array()},   {"rows", nlohmann::json::array()}};
    for (double v : lengths)
        sweep["lengths"].push_back(static_cast<std::int64_t>(v));
    std::string csv = "method,seed,length,accuracy,loss\n";
    out.flush();
    for (std::size_t k = 0; k < runs.size(); ++k) {
        const Run& r = runs[k];
        const std::string head = "[" + std::to_string(k + 1) + "/" + std::to_string(runs.size()) + "] " +
                                 r.method + " seed " + std::to_string(r.seed) + ": ";
        bool complete = false;
        if (fs::exists(r.folder / "config.json")) {
            try {
                complete = lab::read_run_config(r.folder.string()).status == "complete";
            } catch (const lab::LabRunError&) {
            }
        }
        if (complete) {
            if (!quiet)
                err << head << translate("Cli", "complete, reused") << std::endl;
        } else {
            if (fs::exists(r.folder)) // a run stopped before its end: started again
                fs::remove_all(r.folder);
            fs::create_directories(r.folder.parent_path());
            if (!quiet)
                err << head << translate("Cli", "training") << std::endl;
            if (const int status = run_lab_process(r.train); status != 0)
                return status;
        }
        if (!quiet)
            err << head << translate("Cli", "evaluating") << std::endl;
        std::string json;
        if (const int status =
                run_lab_process({"eval", r.folder.string(), "--lengths", length_list, "--sequences",
                                 *o.text("sequences"), "--format", "json", "--quiet"},
                                &json);
            status != 0)
            return status;
        const nlohmann::json e = nlohmann::json::parse(json);
        for (const auto& row : e["lengths"]) {
            const bool defined = !row.contains("defined");
            nlohmann::json j{{"method", r.method}, {"seed", r.seed}, {"length", row["length"]}};
            csv += r.method + ',' + std::to_string(r.seed) + ',' +
                   std::to_string(row["length"].get<std::int64_t>());
            if (defined) {
                j["accuracy"] = row["answer_accuracy"];
                j["loss"] = row["loss"];
                csv += ',' + number(row["answer_accuracy"].get<double>()) + ',' +
                       number(row["loss"].get<double>());
            } else {
                j["accuracy"] = "not defined";
                j["loss"] = "not defined";
                csv += ",not defined,not defined";
            }
            csv += '\n';
            sweep["rows"].push_back(j);
        }
    }
    write_file_atomically((fs::path(dir) / "sweep.csv").string(), csv);
    write_file_atomically((fs::path(dir) / "sweep.json").string(), sweep.dump(2) + '\n');

    // The figure, drawn here from sweep.json as written.
    const nlohmann::json written =
        nlohmann::json::parse(read_input_file((fs::path(dir) / "sweep.json").string(), 1 << 28));
    nlohmann::json numeric = written;
    numeric["rows"] = nlohmann::json::array();
    for (const auto& row : written["rows"])
        if (row["accuracy"].is_number())
            numeric["rows"].push_back(row);
    ensure_application();
    const SweepFigure figure(sweep_curves(numeric));
    ui::FigureExportOptions options;
    options.title = figure.figureTitle();
    try {
        for (const char* ext : {"png", "svg"})
            ui::export_figure(
                figure, QString::fromStdString((fs::path(dir) / (std::string("sweep.") + ext)).string()),
                options);
    } catch (const ui::ExportError& e) {
        err << "posatlas: " << quote_input(e.what(), 2000) << '\n';
        return 2;
    }
    out << dir << ": " << runs.size() << " runs, sweep.csv, sweep.json, sweep.png, sweep.svg\n";
    return 0;
}

} // namespace posatlas::cli
