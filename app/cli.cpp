// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli.h"

#include "cli_completion.h"
#include "cli_compute.h"
#include "cli_export.h"
#include "cli_options.h"
#include "cli_screenshots.h"
#include "io/input_file.h"
#include "io/model_config.h"
#include "scenario/types.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <ostream>

namespace posatlas::cli {

std::string usage()
{
    return "usage: posatlas                      open the GUI\n"
           "       posatlas compute QUANTITY ... print numbers as JSON (or --format csv)\n"
           "       posatlas export --view heatmap|rotation|decay|spectrum [--preset NAME | --config FILE |\n"
           "                       --session FILE] [method options] --out FILE.{png,svg,pdf,csv,json}\n"
           "                       [--width W --height H --dpi D --theme light|dark --caption auto|none|TEXT\n"
           "                        --font-scale F --colormap auto|viridis|magma|cividis|diverging --kind K\n"
           "                        --max-distance R --linear-x --query-position M --key-position N]\n"
           "       posatlas gallery --out DIR [--format png|svg|pdf|csv|json] [--only NAME] [figure options]\n"
           "       posatlas screenshots --out DIR [--dark]   the README's screenshots of the app\n"
           "       posatlas presets [--format json]  list the shipped model presets\n"
           "       posatlas help | --help | --version\n\n"
           + compute_usage();
}

const std::vector<std::string>& commands()
{
    static const std::vector<std::string> names{"compute", "export", "gallery", "screenshots", "presets", "help"};
    return names;
}

bool is_command_line(const std::vector<std::string>& args)
{
    if (args.empty())
        return false;
    const std::string& first = args.front();
    if (first.empty() || first.front() == '-' || first == "completion"
        || std::find(commands().begin(), commands().end(), first) != commands().end())
        return true;
    std::error_code ec;
    const bool looks_like_file = std::filesystem::is_regular_file(first, ec) || first.find('/') != std::string::npos
                                 || (first.size() > 5 && first.compare(first.size() - 5, 5, ".json") == 0);
    return !looks_like_file;
}

namespace {

int dispatch(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace

int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    const int status = dispatch(args, out, err);
    // `posatlas compute ... > /dev/full`: the numbers sit in the stream's buffer until now, and a
    // failed write only shows as the stream's state. Succeeding without the output would be a lie.
    errno = 0;
    out.flush();
    if (!out) {
        const int e = errno;
        err << "posatlas: cannot write to standard output" << (e != 0 ? std::string(" (") + std::strerror(e) + ")" : "")
            << '\n';
        return 2;
    }
    return status;
}

namespace {

int dispatch(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    // Commands that render create a QApplication on demand; it must go before static destructors run.
    struct ReleaseApplication {
        ~ReleaseApplication() { release_application(); }
    } release;
    try {
        if (args.empty() || args.front() == "help" || args.front() == "--help" || args.front() == "-h") {
            out << usage();
            return 0;
        }
        if (args.front() == "--version") {
            out << "posatlas " << POSATLAS_VERSION << '\n';
            return 0;
        }
        const std::vector<std::string> rest(args.begin() + 1, args.end());
        if (args.front() == "compute")
            return run_compute(rest, out);
        if (args.front() == "presets")
            return run_presets(rest, out);
        if (args.front() == "export")
            return run_export(rest, out);
        if (args.front() == "gallery")
            return run_gallery(rest, out);
        if (args.front() == "screenshots")
            return run_screenshots(rest, out);
        if (args.front() == "completion")
            return run_completion(rest, out);
        throw UsageError("unknown command '" + args.front() + "'; one of "
                         + join(commands(), ", ", [](const std::string& c) { return c; })
                         + " (see posatlas --help)");
    } catch (const UsageError& e) {
        // Option values are quoted in these messages: escape them as file contents are (idempotent).
        err << "posatlas: " << quote_input(e.what(), 2000) << '\n';
        return 2;
    } catch (const ParameterError& e) {
        err << "posatlas: " << option_name(e.parameter()) << " must be " << e.allowed() << " (got " << e.got()
            << ")\n";
        return 2;
    } catch (const Cancelled&) {
        err << "posatlas: cancelled\n";
        return 1;
    } catch (const InputFileError& e) { // ConfigError, SessionError, table and scenario-file errors
        err << "posatlas: " << quote_input(e.what(), 2000) << '\n';
        return 2;
    } catch (const std::bad_alloc&) {
        err << "posatlas: out of memory; ask for a smaller window or length\n";
        return 1;
    } catch (const std::exception& e) {
        err << "posatlas: internal error: " << quote_input(e.what(), 2000) << '\n';
        return 1;
    }
}

} // namespace

} // namespace posatlas::cli
