// SPDX-License-Identifier: GPL-3.0-or-later
// M-RoPE through the real binary: `compute mrope-positions` writes the ids of transformers'
// Qwen2VLModel.get_rope_index (values derived by hand in tests/core/methods/mrope/test_mrope.cpp), the layout
// sets the length unless --seq-len is given, and a bad layout is one line naming the option and its form.
#include "cli_support.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace {

using nlohmann::json;
using namespace posatlas::test;

TEST(CliMrope, PositionsOfTextImageText)
{
    const Result csv =
        run({"compute", "mrope-positions", "--token-layout", "text:3,image:1x4x6,text:2", "--format", "csv"});
    ASSERT_EQ(csv.status, 0) << csv.err;
    EXPECT_EQ(csv.out,
              "position,token_kind,t_id,h_id,w_id\n"
              "0,text,0,0,0\n1,text,1,1,1\n2,text,2,2,2\n"
              "3,image,3,3,3\n4,image,3,3,4\n5,image,3,3,5\n6,image,3,4,3\n7,image,3,4,4\n8,image,3,4,5\n"
              "9,text,6,6,6\n10,text,7,7,7\n");
    const Result j =
        run({"compute", "mrope-positions", "--token-layout", "text:1,video:3x4x2", "--variant", "qwen3-vl"});
    ASSERT_EQ(j.status, 0) << j.err;
    const json v = json::parse(j.out);
    EXPECT_EQ(v["t_id"], (std::vector<int>{0, 1, 1, 3, 3, 5, 5}));
    EXPECT_EQ(v["h_id"], (std::vector<int>{0, 1, 2, 3, 4, 5, 6}));
    EXPECT_EQ(v["layout_tokens"], 7);
}

TEST(CliMrope, LayoutSetsTheLengthUnlessSeqLenIsGiven)
{
    const Result m =
        run({"compute", "matrix", "--method", "mrope", "--token-layout", "text:2,image:1x4x4,text:2"});
    ASSERT_EQ(m.status, 0) << m.err;
    const json v = json::parse(m.out);
    EXPECT_EQ(v["matrix"].size(), 8u);
    const Result longer =
        run({"compute", "mrope-positions", "--token-layout", "text:2", "--seq-len", "4", "--format", "csv"});
    ASSERT_EQ(longer.status, 0) << longer.err;
    EXPECT_EQ(longer.out,
              "position,token_kind,t_id,h_id,w_id\n0,text,0,0,0\n1,text,1,1,1\n2,text,2,2,2\n3,text,3,3,3\n");
}

TEST(CliMrope, BadLayoutNamesTheOptionAndItsForm)
{
    const Result r = run({"compute", "mrope-positions", "--token-layout", "text:2,image:1x3x4"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("--token-layout"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("image:TxHxW"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("image:1x3x4"), std::string::npos) << r.err;
}

} // namespace
