// SPDX-License-Identifier: GPL-3.0-or-later
#include "scenario/validation.h"

#include "methods/registry.h"
#include "scenario/content.h"
#include "scenario/content_file.h"
#include "scenario/scenario_files.h"
#include "scenario/validation_count.h"

#include <algorithm>
#include <atomic>
#include <deque>
#include <mutex>

#include <cmath>
#include <string>

namespace posatlas {

ParameterError::ParameterError(std::string parameter, std::string allowed, std::string got)
    : std::invalid_argument(parameter + " must be " + allowed + " (got " + got + ")"),
      m_parameter(std::move(parameter)), m_allowed(std::move(allowed)), m_got(std::move(got))
{
}

void require_int(std::string_view name, std::int64_t value, std::int64_t lo, std::int64_t hi)
{
    if (value < lo || value > hi)
        throw ParameterError(std::string(name),
                             "an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]",
                             std::to_string(value));
}

void require_even_int(std::string_view name, std::int64_t value, std::int64_t lo, std::int64_t hi)
{
    if (value < lo || value > hi || value % 2 != 0)
        throw ParameterError(std::string(name),
                             "an even integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]",
                             std::to_string(value));
}

void require_real(std::string_view name, double value, double lo, double hi, bool lo_inclusive)
{
    const bool ok = std::isfinite(value) && (lo_inclusive ? value >= lo : value > lo) && value <= hi;
    if (!ok)
        throw ParameterError(std::string(name),
                             std::string(lo_inclusive ? ">= " : "> ") + format_number(lo) +
                                 " and <= " + format_number(hi),
                             format_number(value));
}

void require_within_budget(std::string_view name, std::int64_t units, std::int64_t bytes_per_unit,
                           std::string_view what)
{
    if (bytes_per_unit < 1)
        bytes_per_unit = 1;
    const std::int64_t largest = kMemoryBudgetBytes / bytes_per_unit;
    if (units > largest) {
        const double mib =
            static_cast<double>(units) * static_cast<double>(bytes_per_unit) / (1024.0 * 1024.0);
        throw ParameterError(std::string(name),
                             "at most " + std::to_string(largest) + " (" + std::string(what) + ": " +
                                 std::to_string(static_cast<std::int64_t>(mib)) + " MiB would exceed the " +
                                 std::to_string(kMemoryBudgetBytes >> 20) + " MiB memory budget)",
                             std::to_string(units));
    }
}

void require_matrix_fits(std::string_view name, std::int64_t rows, std::int64_t cols)
{
    if (rows < 1 || cols < 1 || rows > kMaxMatrixElements / cols)
        throw ParameterError(std::string(name),
                             "small enough that the matrix (" + std::to_string(rows) + " x " +
                                 std::to_string(cols) + ") has at most " +
                                 std::to_string(kMaxMatrixElements) + " elements",
                             std::to_string(rows) + " x " + std::to_string(cols));
}

namespace {

// Scenarios validated recently (the model's edit, then every view job's kernels asking again): equal
// scenarios whose files hold the same bytes (scenario_files_fingerprint) are valid without a second
// check. A few entries: the current scenario and the ones the views still compute.
class ValidatedMemo
{
public:
    struct Entry {
        Scenario scenario;
        std::string files, method_files;
    };
    bool has_scenario(const Scenario& s, const std::string& files)
    {
        const std::lock_guard lock(m_mutex);
        return std::any_of(m_entries.begin(), m_entries.end(),
                           [&](const Entry& e) { return e.files == files && e.scenario == s; });
    }
    // A validated scenario of method m whose fields of m are s's (validate(RopeParams) builds a scenario
    // around the parameters alone) and whose tables are the same files.
    bool has_method(const Scenario& s, Method m, const std::string& method_files)
    {
        const MethodDescriptor& d = descriptor(m);
        const std::lock_guard lock(m_mutex);
        return std::any_of(m_entries.begin(), m_entries.end(), [&](const Entry& e) {
            if (e.scenario.method != m || e.method_files != method_files)
                return false;
            return std::all_of(d.fields.begin(), d.fields.end(),
                               [&](const Field& f) { return f.get(e.scenario) == f.get(s); });
        });
    }
    void add(Entry e)
    {
        const std::lock_guard lock(m_mutex);
        m_entries.push_front(std::move(e));
        if (m_entries.size() > kEntries)
            m_entries.pop_back();
    }

private:
    static constexpr std::size_t kEntries = 8;
    std::mutex m_mutex;
    std::deque<Entry> m_entries;
};

ValidatedMemo& validated_memo()
{
    static ValidatedMemo memo;
    return memo;
}

std::atomic<std::int64_t> g_full_validations{0};
// Inside a full check, a kernel's or a rule's own validate() (learned_shape's) checks as it always did:
// neither counted nor remembered.
thread_local int t_checking = 0;
struct Checking {
    Checking() { ++t_checking; }
    ~Checking() { --t_checking; }
};

void check_method(const Scenario& s, Method m)
{
    const MethodDescriptor& d = descriptor(m);
    for (const Field& f : d.fields)
        f.check(f.get(s));
    if (d.check)
        d.check(s);
}

void check_scenario(const Scenario& s)
{
    for (const Field& f : common_fields())
        f.check(f.get(s));
    if (s.window != LayerAttention::Global && !s.causal)
        throw ParameterError("causal",
                             "true when window is " + std::string(window_id(s.window)) +
                                 " (a sliding window and chunks narrow the causal mask)",
                             "false");
    if (!s.content.tokens.empty()) {
        const auto tokens = static_cast<std::int64_t>(s.content.tokens.size());
        if (tokens > kMaxTextTokens)
            throw ParameterError("text",
                                 "a sentence of at most " + std::to_string(kMaxTextTokens) + " tokens",
                                 std::to_string(tokens) + " tokens");
        // The sentence is the sequence: one position per token.
        if (s.seq_len != tokens)
            throw ParameterError("seq_len", std::to_string(tokens) + ", the number of tokens of the sentence",
                                 std::to_string(s.seq_len));
    }
    const MethodDescriptor& d = descriptor(s.method);
    check_method(s, s.method);
    validate_content_files(s); // after the method's own fields: its head dimension is known to be valid
    // The shown head matters to per-head methods only (others keep whatever head was last shown).
    if (d.heads)
        require_int("head", s.head, 0, d.heads(s) - 1);
}

} // namespace

void validate_method(const Scenario& s, Method m)
{
    if (t_checking > 0)
        return check_method(s, m);
    const std::string method_files = scenario_files_fingerprint(s, m, false);
    if (validated_memo().has_method(s, m, method_files))
        return;
    ++g_full_validations;
    const Checking checking;
    check_method(s, m);
}

void validate(const Scenario& s)
{
    if (t_checking > 0)
        return check_scenario(s);
    const std::string files = scenario_files_fingerprint(s, s.method);
    if (validated_memo().has_scenario(s, files))
        return;
    ++g_full_validations;
    {
        const Checking checking;
        check_scenario(s);
    }
    validated_memo().add({s, files, scenario_files_fingerprint(s, s.method, false)});
}

namespace testing {
std::int64_t full_validation_count()
{
    return g_full_validations.load();
}
} // namespace testing

} // namespace posatlas
