// SPDX-License-Identifier: GPL-3.0-or-later
// Command-line conventions: every command and quantity answers --help and -h, and its help
// mentions every option its parser accepts (the parser's own list, from its refusal of an unknown
// option); --out - writes to standard output; integer columns print as integers; progress appears
// only on a terminal and never with --quiet; a session's unknown keys are warnings on stderr.
#include "cli_support.h"
#include "test_names.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <fcntl.h>
#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

using namespace posatlas::test;

// "... one of a, b, c" / "... accepts --a, --b": the comma-separated list after `marker` in `text`.
std::vector<std::string> list_after(const std::string& text, const std::string& marker)
{
    std::vector<std::string> items;
    const auto at = text.find(marker);
    if (at == std::string::npos)
        return items;
    std::istringstream list(text.substr(at + marker.size()));
    for (std::string item; std::getline(list, item, ',');) {
        item.erase(0, item.find_first_not_of(" \n"));
        item.erase(item.find_last_not_of(" \n") + 1);
        if (!item.empty())
            items.push_back(item);
    }
    return items;
}

// The quantities, as the parser lists them when it refuses an unknown one.
std::vector<std::string> quantities()
{
    const Result r = run({"compute", "no-such-quantity"});
    EXPECT_EQ(r.status, 2);
    return list_after(r.err, "one of ");
}

// The options the parser accepts in a context, as it lists them when it refuses an unknown one.
std::vector<std::string> accepted(std::vector<std::string> context)
{
    context.push_back("--no-such-option");
    const Result r = run(context);
    EXPECT_EQ(r.status, 2) << r.err;
    return list_after(r.err, "accepts ");
}

// `--name` stands in `text` as a whole option (not as the start of a longer one).
bool mentions(const std::string& text, const std::string& option)
{
    for (auto at = text.find(option); at != std::string::npos; at = text.find(option, at + 1)) {
        const std::size_t end = at + option.size();
        const bool starts =
            at == 0 || !(std::isalnum(static_cast<unsigned char>(text[at - 1])) || text[at - 1] == '-');
        const bool ends =
            end == text.size() || !(std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '-');
        if (starts && ends)
            return true;
    }
    return false;
}

std::vector<std::vector<std::string>> contexts()
{
    std::vector<std::vector<std::string>> c{{"export"},  {"gallery"}, {"screenshots"},
                                            {"presets"}, {"models"},  {"download"}};
    for (const std::string& q : quantities())
        c.push_back({"compute", q});
    return c;
}

std::string joined(const std::vector<std::string>& words)
{
    std::string s;
    for (const auto& w : words)
        s += (s.empty() ? "" : " ") + w;
    return s;
}

TEST(CliHelp, TheTablesListEveryQuantity)
{
    const auto q = quantities();
    EXPECT_GE(q.size(), 12u);
    for (const char* name :
         {"rope-frequencies", "rope-decay", "rope-score", "rope-angles", "rope-pairs", "attention-entropy",
          "alibi-slopes", "t5-buckets", "deberta-buckets", "sinusoidal", "learned", "matrix"})
        EXPECT_NE(std::find(q.begin(), q.end(), name), q.end()) << name;
}

// For every command and every quantity: --help and -h exit 0, print on stdout only, and mention every
// option the parser accepts there. An option added to a parser but not to the help fails here.
TEST(CliHelp, EveryCommandAndQuantityDocumentsEveryOptionItAccepts)
{
    for (const auto& context : contexts()) {
        const std::vector<std::string> options = accepted(context);
        EXPECT_GT(options.size(), 1u) << joined(context);
        for (const char* flag : {"--help", "-h"}) {
            std::vector<std::string> args = context;
            args.push_back(flag);
            const Result r = run(args);
            EXPECT_EQ(r.status, 0) << joined(args) << ": " << r.err;
            EXPECT_TRUE(r.err.empty()) << joined(args) << ": " << r.err;
            EXPECT_NE(r.out.find("usage: posatlas " + context.front()), std::string::npos) << joined(args);
            for (const std::string& o : options)
                EXPECT_TRUE(mentions(r.out, o)) << joined(args) << " does not mention " << o;
        }
    }
}

// The help of a quantity states each of its own options' range and default (from the same declaration
// the parser checks), e.g. rope-decay's --points and attention-entropy's --trials.
// The text with each run of white space (line wraps) as one space.
std::string flat(const std::string& text)
{
    std::string out;
    for (char c : text)
        if (!std::isspace(static_cast<unsigned char>(c)))
            out += c;
        else if (!out.empty() && out.back() != ' ')
            out += ' ';
    return out;
}

TEST(CliHelp, OwnOptionsStateRangeAndDefault)
{
    Result decay = run({"compute", "rope-decay", "--help"});
    decay.out = flat(decay.out);
    EXPECT_NE(decay.out.find("--points N"), std::string::npos) << decay.out;
    EXPECT_NE(decay.out.find("[2, 10000000]"), std::string::npos) << decay.out;
    Result entropy = run({"compute", "attention-entropy", "-h"});
    entropy.out = flat(entropy.out);
    EXPECT_NE(entropy.out.find("[1, 1024]; default: 8"), std::string::npos) << entropy.out;
    // The registry supplies the model options' meaning, range and default.
    EXPECT_NE(decay.out.find("--rope-theta X"), std::string::npos);
    EXPECT_NE(decay.out.find("default: 10000"), std::string::npos);
    // And the parser enforces the range the help states.
    const Result bad = run({"compute", "attention-entropy", "--lengths", "8", "--trials", "2000"});
    EXPECT_EQ(bad.status, 2);
    EXPECT_NE(bad.err.find("--trials must be an integer in [1, 1024]"), std::string::npos) << bad.err;
}

TEST(CliHelp, TopLevelHelpListsCommandsAndHelpWinsOverOtherProblems)
{
    const Result unknown = run({"no-such-command"});
    const std::vector<std::string> commands = list_after(unknown.err, "one of ");
    ASSERT_FALSE(commands.empty()) << unknown.err;
    for (const std::vector<std::string>& args :
         std::vector<std::vector<std::string>>{{"--help"}, {"-h"}, {"help"}}) {
        const Result r = run(args);
        EXPECT_EQ(r.status, 0) << r.err;
        EXPECT_TRUE(r.err.empty()) << r.err;
        for (std::string c : commands) {
            c = c.substr(0, c.find(' ')); // the list ends "help (see posatlas --help)"
            EXPECT_NE(r.out.find("  " + c), std::string::npos) << c;
        }
        EXPECT_TRUE(mentions(r.out, "--version"));
    }
    // `help COMMAND` is `COMMAND --help`; --help beside a bad value still explains (rc 0).
    EXPECT_EQ(run({"help", "export"}).out, run({"export", "--help"}).out);
    EXPECT_EQ(run({"help", "compute", "rope-decay"}).out, run({"compute", "rope-decay", "-h"}).out);
    const Result bad_then_help = run({"export", "--view", "nonsense", "--help"});
    EXPECT_EQ(bad_then_help.status, 0) << bad_then_help.err;
    EXPECT_EQ(run({"completion", "--help"}).status, 0);
    EXPECT_EQ(run({"help", "frobnicate"}).status, 2);
}

// The man page is `posatlas help --all`: it must carry every option of every context too.
TEST(CliHelp, FullHelpForTheManPageListsEveryOption)
{
    const Result all = run({"help", "--all"});
    ASSERT_EQ(all.status, 0) << all.err;
    for (const auto& context : contexts())
        for (const std::string& o : accepted(context))
            EXPECT_TRUE(mentions(all.out, o)) << "help --all lacks " << o << " of " << joined(context);
    for (const char* o : {"--position", "--query", "--key", "--lengths", "--trials", "--points", "--rows",
                          "--cols", "--quiet", "--out"})
        EXPECT_TRUE(mentions(all.out, o)) << o;
}

// ------------------------------------------------------------------ --out -

TEST(CliOut, ComputeWritesTheSameTextToStdoutAndToAFile)
{
    for (const char* format : {"csv", "json"}) {
        const std::vector<std::string> base{"compute", "rope-frequencies", "--head-dim",
                                            "16",      "--format",         format};
        const Result plain = run(base);
        std::vector<std::string> dash = base;
        dash.insert(dash.end(), {"--out", "-"});
        const Result to_stdout = run(dash);
        ASSERT_EQ(to_stdout.status, 0) << to_stdout.err;
        EXPECT_EQ(to_stdout.out, plain.out);
        const auto file = temp_dir() / (std::string("freq.") + format);
        std::vector<std::string> to_file = base;
        to_file.insert(to_file.end(), {"--out", file.string()});
        const Result f = run(to_file);
        ASSERT_EQ(f.status, 0) << f.err;
        EXPECT_EQ(f.out, file.string() + "\n");
        EXPECT_EQ(slurp(file), plain.out);
    }
    // Without --format, a .csv file name asks for CSV.
    const auto csv = temp_dir() / "decay.csv";
    ASSERT_EQ(run({"compute", "rope-decay", "--max-distance", "4", "--out", csv.string()}).status, 0);
    EXPECT_EQ(slurp(csv).rfind("distance_tokens,bound,mean_cos\n", 0), 0u) << slurp(csv);
}

TEST(CliOut, EveryQuantityWritesCsvAndJson)
{
    const std::vector<std::vector<std::string>> cases{
        {"rope-score", "--query", "1,0,0,1", "--key", "0,1,1,0", "--query-position", "5"},
        {"learned", "--dim", "4", "--max-position-embeddings", "8", "--from", "6", "--to", "9"}};
    for (const auto& c : cases) {
        std::vector<std::string> args{"compute"};
        args.insert(args.end(), c.begin(), c.end());
        std::vector<std::string> csv = args;
        csv.insert(csv.end(), {"--format", "csv"});
        const Result r = run(csv);
        ASSERT_EQ(r.status, 0) << r.err;
        EXPECT_GE(std::count(r.out.begin(), r.out.end(), '\n'), 2) << r.out;
        EXPECT_EQ(r.out.find('{'), std::string::npos) << r.out;
    }
    // learned: positions beyond the trained length are empty cells (JSON's null).
    const Result learned = run({"compute", "learned", "--dim", "2", "--max-position-embeddings", "8",
                                "--from", "7", "--to", "8", "--format", "csv"});
    EXPECT_NE(learned.out.find("\n8,,\n"), std::string::npos) << learned.out;
}

TEST(CliOut, ExportWritesCsvAndFigureBytesToStdout)
{
    const auto file = temp_dir() / "decay.csv";
    const std::vector<std::string> base{"export", "--view", "decay", "--preset", "llama-3.1-8b"};
    std::vector<std::string> to_file = base;
    to_file.insert(to_file.end(), {"--out", file.string()});
    ASSERT_EQ(run(to_file).status, 0);
    std::vector<std::string> to_stdout = base;
    to_stdout.insert(to_stdout.end(), {"--out", "-", "--format", "csv"});
    const Result r = run(to_stdout);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(r.err.empty()) << r.err;
    EXPECT_EQ(r.out, slurp(file));
    EXPECT_EQ(r.out.rfind("series,", 0), 0u);

    const std::vector<std::pair<std::string, std::string>> magic{
        {"png", "\x89PNG\r\n"}, {"pdf", "%PDF-"}, {"svg", "<?xml"}};
    for (const auto& [format, start] : magic) {
        const Result fig = run({"export", "--view", "heatmap", "--seq-len", "32", "--width", "200",
                                "--height", "150", "--out", "-", "--format", format});
        ASSERT_EQ(fig.status, 0) << format << ": " << fig.err;
        EXPECT_EQ(fig.out.rfind(start, 0), 0u) << format;
    }
    const Result missing = run({"export", "--view", "heatmap", "--out", "-"});
    EXPECT_EQ(missing.status, 2);
    EXPECT_NE(missing.err.find("--format"), std::string::npos) << missing.err;
    const Result mismatch =
        run({"export", "--view", "heatmap", "--out", (temp_dir() / "a.svg").string(), "--format", "png"});
    EXPECT_EQ(mismatch.status, 2);
    EXPECT_NE(mismatch.err.find("--format png"), std::string::npos) << mismatch.err;
}

// ------------------------------------------------------------------ numbers

// Integer columns are integers in CSV and JSON alike (never 1e+06, never 1000000.0); JSON numbers
// follow the CSV policy, so the same number is the same text in both.
TEST(CliNumbers, IntegerColumnsAndOnePolicyForCsvAndJson)
{
    const Result csv =
        run({"compute", "rope-frequencies", "--head-dim", "8", "--rope-theta", "1000000", "--format", "csv"});
    ASSERT_EQ(csv.status, 0) << csv.err;
    std::istringstream lines(csv.out);
    std::string line;
    std::getline(lines, line);
    for (int pair = 0; std::getline(lines, line); ++pair)
        EXPECT_EQ(line.substr(0, line.find(',')), std::to_string(pair));
    const Result j = run({"compute", "rope-frequencies", "--head-dim", "8", "--rope-theta", "1000000"});
    EXPECT_NE(j.out.find("\"base\":1000000,"), std::string::npos) << j.out;
    EXPECT_EQ(j.out.find(".0,"), std::string::npos) << j.out;
    EXPECT_EQ(j.out.find("e+"), std::string::npos) << j.out;
    // A wavelength is the same text in the CSV and the JSON.
    const std::string after = j.out.substr(j.out.find("\"wavelength_tokens\":[") + 21);
    const std::string first = after.substr(0, after.find_first_of(",]"));
    EXPECT_NE(csv.out.find("," + first + "\n"), std::string::npos) << first << "\n" << csv.out;
    const Result buckets =
        run({"compute", "t5-buckets", "--from", "-1000000", "--to", "-999990", "--format", "csv"});
    ASSERT_EQ(buckets.status, 0) << buckets.err;
    EXPECT_NE(buckets.out.find("\n-1000000,"), std::string::npos) << buckets.out;
}

// A CSV text as its header's names and, per name, the column's cells (as text, so that "the same
// number" means the same shortest round-trip text).
static std::map<std::string, std::vector<std::string>> csv_columns(const std::string& text,
                                                                   std::vector<std::string>* header = nullptr)
{
    std::istringstream lines(text);
    std::string line;
    std::vector<std::string> names;
    std::getline(lines, line);
    for (std::string::size_type a = 0, b = 0; b != std::string::npos; a = b + 1) {
        b = line.find(',', a);
        names.push_back(line.substr(a, b == std::string::npos ? std::string::npos : b - a));
    }
    std::map<std::string, std::vector<std::string>> cols;
    while (std::getline(lines, line)) {
        std::size_t k = 0;
        for (std::string::size_type a = 0, b = 0; b != std::string::npos && k < names.size();
             a = b + 1, ++k) {
            b = line.find(',', a);
            cols[names[k]].push_back(line.substr(a, b == std::string::npos ? std::string::npos : b - a));
        }
    }
    if (header)
        *header = names;
    return cols;
}

// `compute` and `export` name a quantity the same way (core/io/columns.h) and write the same number as
// the same text: every column of an export's CSV that `compute` also has holds identical cells.
TEST(CliNumbers, ComputeAndExportShareColumnNamesAndNumbers)
{
    // Spectrum view <-> compute rope-pairs (one per-pair table, core rope_pairs), YaRN so the ramp is in.
    std::vector<std::string> header;
    const Result spectrum = run(
        {"export", "--view", "spectrum", "--preset", "yarn-llama-2-7b-64k", "--out", "-", "--format", "csv"});
    const Result pairs = run({"compute", "rope-pairs", "--preset", "yarn-llama-2-7b-64k", "--format", "csv"});
    ASSERT_EQ(spectrum.status, 0) << spectrum.err;
    ASSERT_EQ(pairs.status, 0) << pairs.err;
    const auto exported = csv_columns(spectrum.out, &header);
    const auto computed = csv_columns(pairs.out);
    EXPECT_EQ(header.size(), 7u);
    for (const std::string& name : header) {
        ASSERT_TRUE(computed.count(name)) << "compute rope-pairs has no column " << name;
        EXPECT_EQ(exported.at(name), computed.at(name)) << name;
    }

    // Rotation view at m = 37 <-> compute rope-angles --position 37: the query's angles and theta.
    const Result rotation = run({"export", "--view", "rotation", "--head-dim", "16", "--query-position", "37",
                                 "--key-position", "5", "--out", "-", "--format", "csv"});
    const Result angles =
        run({"compute", "rope-angles", "--head-dim", "16", "--position", "37", "--format", "csv"});
    ASSERT_EQ(rotation.status, 0) << rotation.err;
    ASSERT_EQ(angles.status, 0) << angles.err;
    const auto rot = csv_columns(rotation.out, &header);
    const auto ang = csv_columns(angles.out);
    EXPECT_EQ(header, (std::vector<std::string>{"pair", "inv_freq_rad_per_token", "angle_query_rad",
                                                "angle_key_rad", "angle_relative_rad"}));
    EXPECT_EQ(rot.at("pair"), ang.at("pair"));
    EXPECT_EQ(rot.at("inv_freq_rad_per_token"), ang.at("inv_freq_rad_per_token"));
    EXPECT_EQ(rot.at("angle_query_rad"), ang.at("angle_rad"));

    // Curves view of RoPE <-> compute rope-decay: distance_tokens, and the mean cosine (relative size
    // 1 at r = 0, so the view's values are compute's own) at every distance 1..100 (log axis: no r = 0).
    const Result curves = run({"export", "--view", "curves", "--head-dim", "16", "--max-distance", "100",
                               "--out", "-", "--format", "csv"});
    const Result decay =
        run({"compute", "rope-decay", "--head-dim", "16", "--max-distance", "100", "--format", "csv"});
    ASSERT_EQ(curves.status, 0) << curves.err;
    ASSERT_EQ(decay.status, 0) << decay.err;
    const auto cur = csv_columns(curves.out, &header);
    EXPECT_EQ(header, (std::vector<std::string>{"series", "distance_tokens", "relative_size"}));
    const auto dec = csv_columns(decay.out, &header);
    EXPECT_EQ(header, (std::vector<std::string>{"distance_tokens", "bound", "mean_cos"}));
    std::vector<std::string> mean_cos_distance, mean_cos;
    for (std::size_t i = 0; i < cur.at("series").size(); ++i)
        if (cur.at("series")[i] == "mean_cos") {
            mean_cos_distance.push_back(cur.at("distance_tokens")[i]);
            mean_cos.push_back(cur.at("relative_size")[i]);
        }
    ASSERT_EQ(mean_cos.size(), 100u);
    EXPECT_EQ(mean_cos_distance, std::vector<std::string>(dec.at("distance_tokens").begin() + 1,
                                                          dec.at("distance_tokens").end()));
    EXPECT_EQ(mean_cos, std::vector<std::string>(dec.at("mean_cos").begin() + 1, dec.at("mean_cos").end()));

    // Heatmap <-> compute matrix: the row and column names, and the same logits at the same cells.
    // (One head: with several, the heatmap shows small multiples and its CSV gains a panel column.)
    const Result heat = run({"export", "--view", "heatmap", "--method", "alibi", "--num-heads", "1", "--kind",
                             "logits", "--seq-len", "6", "--out", "-", "--format", "csv"});
    const Result matrix = run({"compute", "matrix", "--method", "alibi", "--num-heads", "1", "--kind",
                               "logits", "--seq-len", "6", "--format", "csv"});
    ASSERT_EQ(heat.status, 0) << heat.err;
    ASSERT_EQ(matrix.status, 0) << matrix.err;
    const auto hm = csv_columns(heat.out, &header);
    EXPECT_EQ(header, (std::vector<std::string>{"query_position", "key_position", "logits"}));
    const auto mx = csv_columns(matrix.out, &header);
    ASSERT_EQ(header.size(), 7u);
    EXPECT_EQ(header[0], "query_position");
    EXPECT_EQ(header[3], "key_position_2");
    ASSERT_EQ(hm.at("logits").size(), 36u);
    for (std::size_t c = 0; c < 36; ++c) {
        const std::string& i = hm.at("query_position")[c];
        const std::string& j = hm.at("key_position")[c];
        EXPECT_EQ(hm.at("logits")[c], mx.at("key_position_" + j).at(std::stoul(i))) << i << "," << j;
    }
}

// ------------------------------------------------------------------ progress

// Runs posatlas with stderr (and stdout) on a pseudo-terminal; returns everything the terminal showed.
std::string run_on_terminal(const std::vector<std::string>& args)
{
    int master = -1;
    const pid_t pid = forkpty(&master, nullptr, nullptr, nullptr);
    if (pid == 0) {
        std::vector<char*> argv{const_cast<char*>(POSATLAS_EXE)};
        for (const auto& a : args)
            argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        execv(POSATLAS_EXE, argv.data());
        _exit(127);
    }
    EXPECT_GT(pid, 0);
    std::string shown;
    char buf[4096];
    for (ssize_t n; (n = read(master, buf, sizeof buf)) > 0;)
        shown.append(buf, static_cast<std::size_t>(n));
    int status = 0;
    waitpid(pid, &status, 0);
    close(master);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << shown;
    return shown;
}

TEST(CliProgress, OnlyOnATerminalAndNeverWithQuiet)
{
    const std::string out = (temp_dir() / "decay-progress.csv").string();
    const std::vector<std::string> args{"compute", "rope-decay", "--max-distance", "300000", "--out", out};
    const std::string shown = run_on_terminal(args);
    EXPECT_NE(shown.find("rope-decay: "), std::string::npos) << shown;
    EXPECT_NE(shown.find('%'), std::string::npos) << shown;
    std::vector<std::string> quiet = args;
    quiet.push_back("--quiet");
    const std::string silent = run_on_terminal(quiet);
    EXPECT_EQ(silent.find("rope-decay"), std::string::npos) << silent;
    EXPECT_EQ(silent, out + "\r\n"); // only the path written (stdout), nothing on stderr
    // Not a terminal (a pipe, a file): nothing on stderr, with or without --quiet.
    const Result piped = run(args);
    EXPECT_EQ(piped.status, 0);
    EXPECT_TRUE(piped.err.empty()) << piped.err;
    const std::string gallery =
        run_on_terminal({"gallery", "--out", (temp_dir() / "gallery-progress").string(), "--only", "alibi",
                         "--format", "csv"});
    EXPECT_NE(gallery.find("gallery: 1/"), std::string::npos) << gallery;
}

} // namespace

namespace {

// `posatlas lesson check`: every quoted number of a lesson file computed on its step's scenario (RoPE,
// d = 128, base 10000: theta_0 = 1, theta_63 = 10000^(-126/128) = 1.1548e-4); a wrong one exits 2 and
// says what it prints as; --update rewrites exactly that number; the built-in course checks clean.
TEST(CliLesson, ChecksAndUpdatesQuotedNumbers)
{
    const std::string text = "# L\n\n## S\n\n```posatlas\n{\"scenario\": {\"method\": \"rope\"}}\n```\n\n"
                             "Pair 0 turns [[1 = theta(0)]] rad, pair 63 [[1.20e-4 = theta(63)]] rad.\n";
    const fs::path file = write_file("quotes.md", text);
    const Result wrong = run({"lesson", "check", file.string()});
    EXPECT_EQ(wrong.status, 2) << wrong.err;
    EXPECT_NE(wrong.out.find(":9: step 1: 1 = theta(0)  -> 1  ok"), std::string::npos) << wrong.out;
    EXPECT_NE(wrong.out.find("DIFFERS (prints as 1.15e-4)"), std::string::npos) << wrong.out;
    EXPECT_NE(wrong.out.find("2 quoted numbers: 1 agree with the app, 1 differ"), std::string::npos)
        << wrong.out;

    const Result updated = run({"lesson", "check", "--update", file.string()});
    EXPECT_EQ(updated.status, 0) << updated.err;
    std::string expected = text;
    expected.replace(expected.find("1.20e-4"), 7, "1.15e-4");
    EXPECT_EQ(slurp(file), expected);
    EXPECT_EQ(run({"lesson", "check", file.string()}).status, 0);

    // A table row: several quotes on one line printed alike ("0"), each rewritten in its own place, and
    // "[[0" is not taken for the start of "[[0.5".
    const std::string row = "# L\n\n## S\n\n```posatlas\n{\"scenario\": {\"method\": \"rope\"}}\n```\n\n"
                            "| [[0.5 = 0.5]] | [[0 = 3]] | [[0 = 4]] | [[0 = 0]] | [[0 = 5]] |\n";
    const fs::path rowFile = write_file("row.md", row);
    EXPECT_EQ(run({"lesson", "check", "--update", rowFile.string()}).status, 0);
    EXPECT_EQ(slurp(rowFile), "# L\n\n## S\n\n```posatlas\n{\"scenario\": {\"method\": \"rope\"}}\n```\n\n"
                              "| [[0.5 = 0.5]] | [[3 = 3]] | [[4 = 4]] | [[0 = 0]] | [[5 = 5]] |\n");

    const Result bad =
        run({"lesson", "check",
             write_file("bad.md", "# L\n\n## S\n\n```posatlas\n{}\n```\n[[1 = tehta(0)]]\n").string()});
    EXPECT_EQ(bad.status, 2);
    EXPECT_NE(bad.err.find("bad.md:8: quoted number 1: column 1: unknown function \"tehta\""),
              std::string::npos)
        << bad.err;

    const Result course = run({"lesson", "check"});
    EXPECT_EQ(course.status, 0) << course.out;
    EXPECT_NE(course.out.find(" differ, 0 cannot be computed"), std::string::npos);
    EXPECT_NE(course.out.find(":/posatlas/lessons/zh_CN/"), std::string::npos);
    EXPECT_EQ(run({"lesson", "check", "--update"}).status, 2); // the built-in course is not a file to rewrite
    EXPECT_EQ(run({"lesson"}).status, 2);
}

// A session key no reader knows (a typo) is ignored with a warning naming it and the nearest valid key;
// the export still succeeds (exit 0), as there is no --strict.
TEST(CliConventions, SessionUnknownKeyIsAWarning)
{
    const fs::path session =
        write_file("typo.posatlas.json",
                   R"({"format":"posatlas-session","version":1,"scenario":{"method":"rope","seq_len":16,)"
                   R"("rope":{"rope_thta":500}},"views":{"visible":["heatmap"]}})");
    const fs::path out = temp_dir() / "typo.csv";
    const Result r = run({"export", "--session", session.string(), "--out", out.string()});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.err.find("posatlas: warning: --session " + session.string() +
                         ": unknown key scenario.rope.rope_thta (did you mean rope_theta?)"),
              std::string::npos)
        << r.err;
    EXPECT_TRUE(fs::exists(out));
}

} // namespace
