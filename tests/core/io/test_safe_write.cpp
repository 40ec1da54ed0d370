// SPDX-License-Identifier: GPL-3.0-or-later
// The one file writer (io/safe_write.h) against targets that are not plain files: a symlink planted at a
// temporary name, copies of /dev/null and /dev/full made with mknod in a scratch folder (never the real
// nodes; the tests run as root), a FIFO, symlinks, a private file, concurrent writers, and failures
// that must leave the old file and no temporary file behind.
#include "fifo_reader.h"
#include "io/safe_write.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

using namespace posatlas;
namespace fs = std::filesystem;

namespace {

// An empty folder of its own for one test.
fs::path fresh_dir(const std::string& name)
{
    const fs::path d =
        fs::temp_directory_path() / ("posatlas_safe_write_" + std::to_string(::getpid())) / name;
    fs::remove_all(d);
    fs::create_directories(d);
    return d;
}

std::string slurp(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

void put(const fs::path& p, const std::string& bytes)
{
    std::ofstream(p, std::ios::binary) << bytes;
}

// A copy of a memory device (1, minor): 3 is /dev/null, 7 is /dev/full.
fs::path device_copy(const fs::path& dir, const std::string& name, unsigned minor)
{
    const fs::path p = dir / name;
    EXPECT_EQ(::mknod(p.c_str(), S_IFCHR | 0666, makedev(1, minor)), 0) << std::strerror(errno);
    return p;
}

mode_t kind(const fs::path& p)
{
    struct stat st {
    };
    return ::lstat(p.c_str(), &st) == 0 ? (st.st_mode & S_IFMT) : 0;
}

std::vector<std::string> names_in(const fs::path& dir)
{
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir))
        names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

mode_t mode_of(const fs::path& p)
{
    return static_cast<mode_t>(fs::status(p).permissions() & fs::perms::mask);
}

} // namespace

TEST(SafeWrite, WritesANewFileAndReplacesAnOldOne)
{
    const fs::path dir = fresh_dir("plain");
    write_file_atomically((dir / "a.txt").string(), "first\n");
    EXPECT_EQ(slurp(dir / "a.txt"), "first\n");
    write_file_atomically((dir / "a.txt").string(), "second, longer\n");
    EXPECT_EQ(slurp(dir / "a.txt"), "second, longer\n");
    EXPECT_EQ(names_in(dir), std::vector<std::string>{"a.txt"});
    // A bare file name: the current folder.
    const fs::path cwd = fs::current_path();
    fs::current_path(dir);
    write_file_atomically("b.txt", "here\n");
    fs::current_path(cwd);
    EXPECT_EQ(slurp(dir / "b.txt"), "here\n");
}

TEST(SafeWrite, SymlinkPlantedAtATemporaryNameIsNeverFollowed)
{
    // Whatever name the temporary file gets, a symlink there is not opened: plant one at the names the
    // old writer used and at many guesses of the new pattern; the outside file must stay as it was.
    const fs::path dir = fresh_dir("planted");
    const fs::path outside = fresh_dir("planted_outside") / "victim.txt";
    put(outside, "precious\n");
    fs::create_symlink(outside, dir / "report.json.posatlas-tmp");
    fs::create_symlink(outside, dir / "report.json.tmp");
    for (int i = 0; i < 20; ++i) {
        SafeFileWriter w((dir / "report.json").string());
        w.write("{}\n");
        w.commit();
    }
    EXPECT_EQ(slurp(outside), "precious\n");
    EXPECT_EQ(kind(dir / "report.json"), S_IFREG);
    EXPECT_EQ(slurp(dir / "report.json"), "{}\n");
    EXPECT_EQ(names_in(dir),
              (std::vector<std::string>{"report.json", "report.json.posatlas-tmp", "report.json.tmp"}));
}

TEST(SafeWrite, CopyOfDevNullStaysACharacterDevice)
{
    const fs::path dir = fresh_dir("devnull");
    const fs::path null = device_copy(dir, "null", 3);
    SafeFileWriter w(null.string());
    EXPECT_TRUE(w.writes_straight());
    w.write(std::string(1 << 20, 'x'));
    w.commit();
    EXPECT_EQ(kind(null), S_IFCHR);
    EXPECT_EQ(names_in(dir), std::vector<std::string>{"null"});
}

TEST(SafeWrite, CopyOfDevFullNamesThePathAndNoSpaceLeft)
{
    const fs::path dir = fresh_dir("devfull");
    const fs::path full = device_copy(dir, "full", 7);
    try {
        write_file_atomically(full.string(), "bytes\n");
        FAIL() << "a write to a full device was reported as written";
    } catch (const OutputFileError& e) {
        EXPECT_EQ(std::string(e.what()), "cannot write " + full.string() + ": No space left on device");
        EXPECT_EQ(e.path(), full.string());
        EXPECT_EQ(e.reason(), "No space left on device");
    }
    EXPECT_EQ(kind(full), S_IFCHR);
    EXPECT_EQ(names_in(dir), std::vector<std::string>{"full"});
}

TEST(SafeWrite, FifoIsWrittenStraight)
{
    const fs::path dir = fresh_dir("fifo");
    const fs::path fifo = dir / "pipe";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const std::string bytes(300000, 'f'); // more than a pipe holds: the reader must drain it meanwhile
    posatlas::test::FifoReader reader(fifo);
    ASSERT_TRUE(reader.opened());
    try {
        write_file_atomically(fifo.string(), bytes);
    } catch (const OutputFileError& e) {
        ADD_FAILURE() << e.what();
    }
    EXPECT_EQ(reader.finish(), bytes);
    EXPECT_EQ(kind(fifo), S_IFIFO);
    EXPECT_EQ(names_in(dir), std::vector<std::string>{"pipe"});
}

TEST(SafeWrite, ConcurrentWritersLeaveOneCompleteFile)
{
    const fs::path dir = fresh_dir("concurrent");
    const fs::path target = dir / "same.json";
    std::vector<std::string> contents;
    for (int i = 0; i < 4; ++i)
        contents.push_back(
            std::string(static_cast<std::size_t>(400000 + 1000 * i), static_cast<char>('a' + i)));
    for (int round = 0; round < 10; ++round) {
        std::atomic<int> failures{0};
        std::vector<std::thread> writers;
        for (int i = 0; i < 4; ++i)
            writers.emplace_back([&, i] {
                try {
                    SafeFileWriter w(target.string());
                    const std::string& c = contents[static_cast<std::size_t>(i)];
                    for (std::size_t at = 0; at < c.size(); at += 4096) // many small writes interleave
                        w.write(c.data() + at, std::min<std::size_t>(4096, c.size() - at));
                    w.commit();
                } catch (const OutputFileError&) {
                    ++failures;
                }
            });
        for (auto& t : writers)
            t.join();
        EXPECT_EQ(failures.load(), 0);
        const std::string got = slurp(target);
        EXPECT_TRUE(std::find(contents.begin(), contents.end(), got) != contents.end())
            << "round " << round << ": " << got.size() << " bytes";
        EXPECT_EQ(names_in(dir), std::vector<std::string>{"same.json"});
    }
}

TEST(SafeWrite, ModeOfTheReplacedFileIsKeptAndANewFileGetsTheUmasks)
{
    const fs::path dir = fresh_dir("mode");
    const fs::path priv = dir / "private.json";
    put(priv, "old\n");
    ::chmod(priv.c_str(), 0600);
    write_file_atomically(priv.string(), "new\n");
    EXPECT_EQ(slurp(priv), "new\n");
    EXPECT_EQ(mode_of(priv), 0600u);
    const fs::path shared = dir / "shared.json";
    put(shared, "old\n");
    ::chmod(shared.c_str(), 0664);
    write_file_atomically(shared.string(), "new\n");
    EXPECT_EQ(mode_of(shared), 0664u);
    const mode_t mask = ::umask(0);
    ::umask(mask);
    write_file_atomically((dir / "new.json").string(), "x\n");
    EXPECT_EQ(mode_of(dir / "new.json"), 0666u & ~mask);
}

TEST(SafeWrite, SymlinkTheUserChoseIsFollowedAndStays)
{
    const fs::path dir = fresh_dir("links");
    const fs::path sub = fresh_dir("links/sub");
    put(sub / "real.json", "old\n");
    ::chmod((sub / "real.json").c_str(), 0600);
    fs::create_symlink("sub/real.json", dir / "link.json");    // relative to the link's folder
    fs::create_symlink(dir / "link.json", dir / "link2.json"); // a chain
    write_file_atomically((dir / "link2.json").string(), "new\n");
    EXPECT_EQ(kind(dir / "link.json"), S_IFLNK);
    EXPECT_EQ(kind(dir / "link2.json"), S_IFLNK);
    EXPECT_EQ(slurp(sub / "real.json"), "new\n");
    EXPECT_EQ(mode_of(sub / "real.json"), 0600u);
    EXPECT_EQ(names_in(sub), std::vector<std::string>{"real.json"}); // the temporary file was beside it
    // A dangling link: the file is created where it points.
    fs::create_symlink("sub/later.json", dir / "dangling.json");
    write_file_atomically((dir / "dangling.json").string(), "later\n");
    EXPECT_EQ(kind(dir / "dangling.json"), S_IFLNK);
    EXPECT_EQ(slurp(sub / "later.json"), "later\n");
}

TEST(SafeWrite, FilesTheProgramOwnsReplaceASymlinkInsteadOfFollowingIt)
{
    const fs::path dir = fresh_dir("owned");
    const fs::path outside = fresh_dir("owned_outside") / "victim.txt";
    put(outside, "precious\n");
    fs::create_symlink(outside, dir / "autosave.json");
    write_file_atomically((dir / "autosave.json").string(), "state\n", SafeWriteOptions{false});
    EXPECT_EQ(slurp(outside), "precious\n");
    EXPECT_EQ(kind(dir / "autosave.json"), S_IFREG);
    EXPECT_EQ(slurp(dir / "autosave.json"), "state\n");
    // A device there is refused, not written.
    const fs::path null = device_copy(dir, "cache.bin", 3);
    EXPECT_THROW(write_file_atomically(null.string(), "x", SafeWriteOptions{false}), OutputFileError);
    EXPECT_EQ(kind(null), S_IFCHR);
}

TEST(SafeWrite, FailuresNameThePathAndLeaveNoTemporaryFile)
{
    const fs::path dir = fresh_dir("failures");
    // A folder at the target's name.
    fs::create_directories(dir / "folder.json");
    try {
        write_file_atomically((dir / "folder.json").string(), "x");
        FAIL() << "a folder was written as a file";
    } catch (const OutputFileError& e) {
        EXPECT_EQ(std::string(e.what()),
                  "cannot write " + (dir / "folder.json").string() + ": Is a directory");
    }
    // A missing folder.
    try {
        write_file_atomically((dir / "missing" / "x.json").string(), "x");
        FAIL() << "a file in a missing folder was reported as written";
    } catch (const OutputFileError& e) {
        EXPECT_NE(std::string(e.what()).find("No such file or directory"), std::string::npos) << e.what();
    }
    // Abandoned (an exception while the caller produced the bytes): the old file stays, no temporary file.
    put(dir / "kept.json", "old\n");
    {
        SafeFileWriter w((dir / "kept.json").string());
        w.write("half of the new");
    }
    EXPECT_EQ(slurp(dir / "kept.json"), "old\n");
    EXPECT_EQ(names_in(dir), (std::vector<std::string>{"folder.json", "kept.json"}));
}

TEST(SafeWrite, StreamBufferReportsTheWriteErrorOnFinish)
{
    const fs::path dir = fresh_dir("stream");
    {
        SafeFileWriter w((dir / "out.txt").string());
        SafeWriterBuf buf(w);
        std::ostream os(&buf);
        for (int i = 0; i < 100000; ++i)
            os << i << '\n';
        buf.finish();
        w.commit();
    }
    std::string expected;
    for (int i = 0; i < 100000; ++i)
        expected += std::to_string(i) + '\n';
    EXPECT_EQ(slurp(dir / "out.txt"), expected);

    const fs::path full = device_copy(dir, "full", 7);
    SafeFileWriter w(full.string());
    SafeWriterBuf buf(w);
    std::ostream os(&buf);
    os << std::string(200000, 'x'); // larger than the buffer: the error arrives while writing
    EXPECT_FALSE(os.good());
    EXPECT_THROW(buf.finish(), OutputFileError);
}
