// SPDX-License-Identifier: GPL-3.0-or-later
// `compute --out` and `export --out` against targets that are not plain files: device nodes (copies of
// /dev/null and /dev/full made with mknod in a scratch folder, never the real ones), FIFOs, symlinks,
// a symlink planted at a temporary name, a private file, and four runs writing the same file at once.
#include "cli_support.h"
#include "fifo_reader.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;

using posatlas::test::quote;
using posatlas::test::Result;
using posatlas::test::slurp;
using posatlas::test::temp_dir;
using posatlas::test::write_file;

Result run(const std::vector<std::string>& args, const std::string& stdout_to = {})
{
    return posatlas::test::run(args, {stdout_to, 60});
}

// An empty folder of its own for one test.
fs::path fresh_dir(const std::string& name)
{
    const fs::path d = temp_dir() / name;
    fs::remove_all(d);
    fs::create_directories(d);
    return d;
}

// A copy of a memory device (1, minor): 3 is /dev/null, 7 is /dev/full. The tests run as root.
fs::path device_copy(const fs::path& dir, const std::string& name, unsigned minor)
{
    const fs::path p = dir / name;
    EXPECT_EQ(::mknod(p.c_str(), S_IFCHR | 0666, makedev(1, minor)), 0) << std::strerror(errno);
    return p;
}

bool is_char_device(const fs::path& p)
{
    struct stat st {
    };
    return ::lstat(p.c_str(), &st) == 0 && S_ISCHR(st.st_mode);
}

std::vector<std::string> names_in(const fs::path& dir)
{
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir))
        names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

bool parses(const std::string& text)
{
    return nlohmann::json::accept(text);
}

const std::vector<std::string> kFrequencies = {"compute", "rope-frequencies", "--preset", "llama-2-7b"};

std::vector<std::string> with_out(std::vector<std::string> args, const fs::path& out)
{
    args.push_back("--out");
    args.push_back(out.string());
    return args;
}

} // namespace

TEST(CliOutputFiles, SymlinkPlantedAtTheOldTemporaryNameIsNotFollowed)
{
    const fs::path dir = fresh_dir("planted");
    const fs::path outside = fresh_dir("planted_outside") / "victim.txt";
    write_file("planted_outside/victim.txt", "precious\n");
    fs::create_symlink(outside, dir / "report.json.posatlas-tmp");
    const Result r = run(with_out(kFrequencies, dir / "report.json"));
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(slurp(outside) == "precious\n") << "the file outside was overwritten";
    EXPECT_FALSE(fs::is_symlink(dir / "report.json"));
    EXPECT_TRUE(parses(slurp(dir / "report.json")));
    EXPECT_TRUE(fs::is_symlink(dir / "report.json.posatlas-tmp"));
    EXPECT_EQ(names_in(dir), (std::vector<std::string>{"report.json", "report.json.posatlas-tmp"}));
}

TEST(CliOutputFiles, CopyOfDevNullStaysACharacterDevice)
{
    const fs::path dir = fresh_dir("devnull");
    const fs::path null = device_copy(dir, "null", 3);
    const Result r = run(with_out(kFrequencies, null));
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(is_char_device(null));
    EXPECT_EQ(names_in(dir), std::vector<std::string>{"null"}); // no temporary file left beside it
}

TEST(CliOutputFiles, CopyOfDevFullExitsTwoWithTheSystemsReason)
{
    const fs::path dir = fresh_dir("devfull");
    const fs::path full = device_copy(dir, "full", 7);
    const Result r = run(with_out(kFrequencies, full));
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_NE(r.err.find("No space left on device"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(full.string()), std::string::npos) << r.err;
    EXPECT_TRUE(is_char_device(full));
    EXPECT_EQ(names_in(dir), std::vector<std::string>{"full"});
}

TEST(CliOutputFiles, FifoIsWrittenStraight)
{
    const fs::path dir = fresh_dir("fifo");
    const fs::path fifo = dir / "pipe";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    posatlas::test::FifoReader reader(fifo);
    ASSERT_TRUE(reader.opened());
    const Result r = run(with_out(kFrequencies, fifo));
    const std::string received = reader.finish();
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(parses(received)) << received.substr(0, 200);
    struct stat st {
    };
    ASSERT_EQ(::lstat(fifo.c_str(), &st), 0);
    EXPECT_TRUE(S_ISFIFO(st.st_mode));
    EXPECT_EQ(names_in(dir), std::vector<std::string>{"pipe"});
}

TEST(CliOutputFiles, SymlinkToStandardOutputWritesToStandardOutput)
{
    const fs::path dir = fresh_dir("stdout_link");
    const fs::path link = dir / "out.json";
    fs::create_symlink("/dev/stdout", link);
    const Result r = run(with_out(kFrequencies, link));
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(parses(r.out)) << r.out.substr(0, 200); // the JSON alone, not followed by the path
    EXPECT_TRUE(fs::is_symlink(link));
    EXPECT_EQ(names_in(dir), std::vector<std::string>{"out.json"});
}

TEST(CliOutputFiles, FourRunsWritingTheSameFileLeaveOneCompleteResult)
{
    // Four different results (different lengths), each about a megabyte, written at once to one file.
    const fs::path dir = fresh_dir("concurrent");
    std::vector<std::vector<std::string>> runs;
    std::vector<std::string> expected;
    for (int i = 0; i < 4; ++i) {
        runs.push_back({"compute", "sinusoidal", "--length", std::to_string(1000 + 24 * i), "--dim", "64"});
        const Result alone = run(runs.back());
        ASSERT_EQ(alone.status, 0) << alone.err;
        expected.push_back(alone.out);
    }
    const fs::path target = dir / "same.json";
    for (int round = 0; round < 3; ++round) {
        std::string cmd;
        for (int i = 0; i < 4; ++i) {
            cmd.append(quote(POSATLAS_EXE));
            for (const auto& a : with_out(runs[static_cast<std::size_t>(i)], target))
                cmd.append(" ").append(quote(a));
            cmd.append(" >/dev/null 2>").append(quote((dir / ("err" + std::to_string(i))).string()));
            cmd.append(" & p").append(std::to_string(i)).append("=$!; ");
        }
        cmd.append("fail=0; for p in $p0 $p1 $p2 $p3; do wait $p || fail=1; done; exit $fail");
        const int status = std::system(cmd.c_str());
        EXPECT_EQ(status, 0) << slurp(dir / "err0") << slurp(dir / "err1") << slurp(dir / "err2")
                             << slurp(dir / "err3");
        const std::string got = slurp(target);
        EXPECT_TRUE(got == expected[0] || got == expected[1] || got == expected[2] || got == expected[3])
            << "round " << round << ": " << got.size() << " bytes, parses: " << parses(got);
        for (const auto& name : names_in(dir))
            EXPECT_TRUE(name == "same.json" || name.rfind("err", 0) == 0) << name;
    }
}

TEST(CliOutputFiles, PrivateFileKeepsItsMode)
{
    const fs::path dir = fresh_dir("mode");
    const fs::path file = write_file("mode/private.json", "old\n");
    fs::permissions(file, fs::perms::owner_read | fs::perms::owner_write);
    const Result r = run(with_out(kFrequencies, file));
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(parses(slurp(file)));
    EXPECT_EQ(fs::status(file).permissions() & fs::perms::mask,
              fs::perms::owner_read | fs::perms::owner_write);
    // A new file: 0666 less the umask, as any program creates one.
    const mode_t mask = ::umask(0);
    ::umask(mask);
    const fs::path fresh = dir / "new.json";
    ASSERT_EQ(run(with_out(kFrequencies, fresh)).status, 0);
    EXPECT_EQ(static_cast<mode_t>(fs::status(fresh).permissions() & fs::perms::mask), 0666 & ~mask);
}

TEST(CliOutputFiles, SymlinkTheUserChoseStaysAndItsFileGetsTheResult)
{
    const fs::path dir = fresh_dir("user_link");
    const fs::path real = write_file("user_link/real.json", "old\n");
    const fs::path link = dir / "link.json";
    fs::create_symlink("real.json", link);
    Result r = run(with_out(kFrequencies, link));
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(fs::is_symlink(link));
    EXPECT_TRUE(parses(slurp(real)));
    // A link to a file that does not exist yet: the file is created where the link points.
    const fs::path sub = fresh_dir("user_link/sub");
    const fs::path dangling = dir / "dangling.json";
    fs::create_symlink(sub / "created.json", dangling);
    r = run(with_out(kFrequencies, dangling));
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(fs::is_symlink(dangling));
    EXPECT_TRUE(parses(slurp(sub / "created.json")));
    EXPECT_EQ(names_in(sub), std::vector<std::string>{"created.json"});
}

TEST(CliOutputFiles, ExportToADeviceWritesStraightAndNamesAFullDevice)
{
    const fs::path dir = fresh_dir("export_devices");
    const fs::path null = device_copy(dir, "null.csv", 3);
    Result r = run({"export", "--view", "decay", "--head-dim", "64", "--out", null.string()});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(is_char_device(null));
    const fs::path full = device_copy(dir, "good.csv", 7);
    r = run({"export", "--view", "decay", "--head-dim", "64", "--out", full.string()});
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_NE(r.err.find("cannot write " + full.string() + ": No space left on device"), std::string::npos)
        << r.err;
    EXPECT_TRUE(is_char_device(full));
    EXPECT_EQ(names_in(dir), (std::vector<std::string>{"good.csv", "null.csv"}));
}
