// SPDX-License-Identifier: GPL-3.0-or-later
// A sentence as content (scenario/content.h): tokens, and one seeded vector per distinct word.
#include "io/scenario_json.h"
#include "methods/registry.h"
#include "scenario/content.h"
#include "scenario/types.h"
#include "scenario/validation.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace posatlas;

TEST(ContentText, WhitespaceWords)
{
    EXPECT_EQ(tokenize_text("  the dog\tbit the\nman "),
              (std::vector<std::string>{"the", "dog", "bit", "the", "man"}));
    EXPECT_TRUE(tokenize_text("").empty());
    EXPECT_TRUE(tokenize_text(" \t ").empty());
}

TEST(ContentText, ChineseCharactersAreTokens)
{
    EXPECT_EQ(tokenize_text("今天天气很好"), (std::vector<std::string>{"今", "天", "天", "气", "很", "好"}));
    // Mixed: Latin words stay whole, punctuation of full width is a token, the ideographic space separates.
    EXPECT_EQ(tokenize_text("我爱NLP，好　吗"),
              (std::vector<std::string>{"我", "爱", "NLP", "，", "好", "吗"}));
    // A byte that is not UTF-8 stays in its word (no crash, nothing lost).
    EXPECT_EQ(tokenize_text("a\xff"
                            "b c"),
              (std::vector<std::string>{"a\xff"
                                        "b",
                                        "c"}));
}

TEST(ContentText, SameWordSameVectors)
{
    ContentParams c;
    c.seed = 3;
    set_content_text(c, "the dog bit the man");
    // Positions 0 and 3 are both "the": identical query and key vectors, bit for bit.
    EXPECT_EQ(content_query(c, 16, 0), content_query(c, 16, 3));
    EXPECT_EQ(content_key(c, 16, 0), content_key(c, 16, 3));
    EXPECT_NE(content_query(c, 16, 0), content_query(c, 16, 1));
    EXPECT_NE(content_query(c, 16, 0), content_key(c, 16, 0)); // query and key differ, as Random's
    double buf[16];
    content_vector_into(c, true, 16, 3, buf);
    EXPECT_EQ(Eigen::Map<Eigen::VectorXd>(buf, 16), content_key(c, 16, 0));
    // The seed matters; the word's place in another sentence does not.
    ContentParams other = c;
    set_content_text(other, "man the");
    EXPECT_EQ(content_query(other, 16, 1), content_query(c, 16, 0));
    other.seed = 4;
    EXPECT_NE(content_query(other, 16, 1), content_query(c, 16, 0));
    EXPECT_FALSE(content_is_position_independent(c));
}

TEST(ContentText, Fnv1aReferenceValues)
{
    // Published FNV-1a 64-bit test vectors (http://www.isthe.com/chongo/tech/comp/fnv/).
    EXPECT_EQ(fnv1a64(""), 0xcbf29ce484222325ULL);
    EXPECT_EQ(fnv1a64("a"), 0xaf63dc4c8601ec8cULL);
    EXPECT_EQ(fnv1a64("foobar"), 0x85944171f73967e8ULL);
}

TEST(ContentText, SentenceSetsSeqLenAndValidates)
{
    Scenario s;
    common_field("text")->set(s, std::string("the dog bit the man"));
    EXPECT_EQ(s.seq_len, 5);
    EXPECT_NO_THROW(validate(s));
    s.seq_len = 6;
    try {
        validate(s);
        FAIL() << "expected ParameterError";
    } catch (const ParameterError& e) {
        EXPECT_EQ(e.parameter(), "seq_len");
    }
    std::string many;
    for (std::int64_t k = 0; k <= kMaxTextTokens; ++k)
        many += "w ";
    common_field("text")->set(s, many);
    try {
        validate(s);
        FAIL() << "expected ParameterError";
    } catch (const ParameterError& e) {
        EXPECT_EQ(e.parameter(), "text");
    }
}

TEST(ContentText, SessionRoundTrip)
{
    Scenario s;
    s.method = Method::RoPE;
    common_field("text")->set(s, std::string("今天天气很好"));
    s.causal = true;
    const Scenario back = scenario_from_json(scenario_to_json(s));
    EXPECT_EQ(back.content.text, "今天天气很好");
    EXPECT_EQ(back.content.tokens.size(), 6u);
    EXPECT_EQ(back.seq_len, 6);
    EXPECT_TRUE(back.causal);
    EXPECT_EQ(back, s);
}
