// SPDX-License-Identifier: GPL-3.0-or-later
// Hostile run folders: a config.json or model.safetensors that is damaged, of another shape or made to
// hurt is refused with a message naming the file (an InputFileError, exit status 2 on the command line),
// and nothing in the folder changes.
#include "lab_fixtures.h"

#include "io/safetensors_write.h"
#include "lab/lab.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>

namespace posatlas::lab {
namespace {

struct Damage {
    std::string name;
    std::string file; // config.json or model.safetensors
    std::function<std::string(const std::string&)> edit;
};

void PrintTo(const Damage& d, std::ostream* os)
{
    *os << d.name;
}

std::string replace(std::string s, const std::string& from, const std::string& to)
{
    const std::size_t at = s.find(from);
    if (at == std::string::npos)
        throw std::logic_error("fixture: no '" + from + "' in the file");
    return s.replace(at, from.size(), to);
}

class HostileRun : public ::testing::TestWithParam<Damage>
{
protected:
    static void SetUpTestSuite()
    {
        s_dir = testing::fresh_dir("hostile-source");
        train_run(testing::tiny("t5", 10), s_dir, "test");
    }
    static void TearDownTestSuite() { std::filesystem::remove_all(s_dir); }
    static std::string s_dir;
};
std::string HostileRun::s_dir;

TEST_P(HostileRun, IsRefusedNamingTheFileAndNothingChanges)
{
    const Damage& d = GetParam();
    const std::string dir = testing::fresh_dir("hostile-" + d.name);
    std::filesystem::copy(s_dir, dir);
    const std::string path = dir + "/" + d.file;
    testing::put_bytes(path, d.edit(testing::file_bytes(path)));
    std::map<std::string, std::string> before;
    for (const auto& e : std::filesystem::directory_iterator(dir))
        before[e.path().filename().string()] = testing::file_bytes(e.path().string());
    EvalOptions o;
    o.lengths = {12};
    o.sequences = 4;
    try {
        evaluate_run(dir, o);
        ADD_FAILURE() << d.name << ": accepted";
    } catch (const InputFileError& e) {
        EXPECT_NE(std::string(e.what()).find(d.file), std::string::npos) << e.what();
    }
    std::map<std::string, std::string> after;
    for (const auto& e : std::filesystem::directory_iterator(dir))
        after[e.path().filename().string()] = testing::file_bytes(e.path().string());
    EXPECT_EQ(before, after);
    std::filesystem::remove_all(dir);
}

std::string other_shape(const std::string&)
{
    // A valid safetensors file whose tensors are not the run's.
    const std::string tmp = testing::fresh_dir("other") + ".safetensors";
    write_safetensors(tmp, {{"tok_emb", {2, 2}, {1, 2, 3, 4}}});
    std::string b = testing::file_bytes(tmp);
    std::filesystem::remove(tmp);
    return b;
}

INSTANTIATE_TEST_SUITE_P(
    Lab, HostileRun,
    ::testing::Values(
        Damage{"config_not_json", "config.json",
               [](const std::string&) { return std::string("{\"format\": "); }},
        Damage{"config_empty", "config.json", [](const std::string&) { return std::string(); }},
        Damage{"config_deep_nesting", "config.json",
               [](const std::string&) { return std::string(100000, '[') + std::string(100000, ']'); }},
        Damage{"config_heads_text", "config.json",
               [](const std::string& s) { return replace(s, "\"heads\": 2", "\"heads\": \"two\""); }},
        Damage{"config_heads_huge", "config.json",
               [](const std::string& s) { return replace(s, "\"heads\": 2", "\"heads\": 1e300"); }},
        Damage{"config_heads_not_dividing", "config.json",
               [](const std::string& s) { return replace(s, "\"heads\": 2", "\"heads\": 3"); }},
        Damage{"config_d_model_huge", "config.json",
               [](const std::string& s) { return replace(s, "\"d_model\": 16", "\"d_model\": 1000000"); }},
        Damage{"config_unknown_method", "config.json",
               [](const std::string& s) { return replace(s, "\"method\": \"t5\"", "\"method\": \"t6\""); }},
        Damage{"config_train_len_beyond_memory", "config.json",
               [](const std::string& s) { return replace(s, "\"train_len\": 12", "\"train_len\": 65536"); }},
        Damage{"config_steps_done_negative", "config.json",
               [](const std::string& s) { return replace(s, "\"steps_done\": 10", "\"steps_done\": -1"); }},
        Damage{"weights_truncated", "model.safetensors",
               [](const std::string& s) { return s.substr(0, s.size() / 2); }},
        Damage{"weights_header_length_huge", "model.safetensors",
               [](const std::string& s) {
                   return std::string("\xff\xff\xff\xff\xff\xff\xff\x7f", 8) + s.substr(8);
               }},
        Damage{"weights_empty", "model.safetensors", [](const std::string&) { return std::string(); }},
        Damage{"weights_other_tensors", "model.safetensors", other_shape},
        Damage{"weights_nan", "model.safetensors",
               [](const std::string& s) {
                   std::string b = s;
                   const float nan = std::numeric_limits<float>::quiet_NaN();
                   b.replace(b.size() - 4, 4, reinterpret_cast<const char*>(&nan), 4);
                   return b;
               }}),
    [](const ::testing::TestParamInfo<Damage>& i) { return i.param.name; });

// A probe's length is bounded by the memory budget: the largest length allowed is accepted, one more is
// refused naming --length and that largest value (24 bytes per head and position pair within 3 GiB:
// 4 heads, floor(sqrt(3 * 2^30 / 96)) = 5792).
TEST(ProbeLimits, LongestProbeWithinTheBudgetIsAcceptedAndOneMoreIsRefusedNamingIt)
{
    RunInfo info;
    info.config = testing::tiny("rope");
    info.config.heads = 4;
    EXPECT_EQ(probe_max_length(4), 5792);
    ProbeRequest r;
    r.length = probe_max_length(4);
    const std::string out = (std::filesystem::temp_directory_path() / "posatlas-probe-limit-unused").string();
    EXPECT_NO_THROW(check_probe(info, r, out));
    r.length += 1;
    try {
        check_probe(info, r, out);
        ADD_FAILURE() << "a probe of " << r.length << " positions was not refused";
    } catch (const ParameterError& e) {
        EXPECT_NE(std::string(e.what()).find("at most 5792"), std::string::npos) << e.what();
        EXPECT_EQ(e.parameter(), "length");
    }
    EXPECT_FALSE(std::filesystem::exists(out));
}

} // namespace
} // namespace posatlas::lab
