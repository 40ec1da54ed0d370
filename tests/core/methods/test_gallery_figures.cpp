// SPDX-License-Identifier: GPL-3.0-or-later
// The gallery figures the methods declare (MethodDescriptor::gallery, methods/gallery_figure.h): each a
// valid scenario of its own method, named once, captioned, with a kind and a view the method has. The
// rendering of each, and the gallery's order, are checked in ui_gallery_tests.
#include "methods/alibi/alibi_params.h"
#include "methods/mrope/mrope.h"
#include "methods/registry.h"
#include "methods/rope2d/rope2d.h"
#include "methods/swin/swin.h"
#include "scenario/params.h"
#include "scenario/validation.h"

#include <gtest/gtest.h>

#include <cctype>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

using namespace posatlas;

TEST(GalleryFigures, EachIsAValidScenarioOfItsMethodNamedOnce)
{
    std::set<std::string> stems;
    for (const MethodDescriptor& d : methods())
        for (const GalleryFigureSpec& spec : d.gallery) {
            SCOPED_TRACE(spec.stem);
            EXPECT_TRUE(stems.insert(spec.stem).second);
            EXPECT_FALSE(spec.stem.empty());
            EXPECT_NE(std::string(spec.caption), "");
            ASSERT_TRUE(spec.scenario);
            const Scenario s = spec.scenario();
            EXPECT_EQ(s.method, d.method);
            EXPECT_NO_THROW(validate(s));
            if (spec.matrix_kind) {
                EXPECT_NE(d.kind(*spec.matrix_kind), nullptr);
            }
            // The rotation and spectrum views draw RoPE's pairs.
            if (spec.view == GalleryView::Rotation || spec.view == GalleryView::Spectrum) {
                EXPECT_EQ(d.method, Method::RoPE);
            }
        }
    EXPECT_GE(stems.size(), 19u);
}

// A caption quotes its parameters as %1, %2, … filled from the figure (GalleryFigureSpec::caption_numbers):
// the caption has exactly the placeholders %1 … %n of its n numbers, and each number is a number's text
// (prose_number's: digits, or a power of ten). That the captions type no other number, and that the Chinese
// ones have the same placeholders, is checked in ui_gallery_tests with the translations loaded.
TEST(GalleryFigures, CaptionsHaveOnePlaceholderPerComputedNumber)
{
    int numbers_in_all = 0;
    for (const MethodDescriptor& d : methods())
        for (const GalleryFigureSpec& spec : d.gallery) {
            SCOPED_TRACE(spec.stem);
            const std::string caption = spec.caption;
            std::set<int> placeholders;
            for (std::size_t i = caption.find('%'); i != std::string::npos; i = caption.find('%', i + 1)) {
                ASSERT_LT(i + 1, caption.size());
                ASSERT_TRUE(std::isdigit(static_cast<unsigned char>(caption[i + 1])));
                int k = caption[i + 1] - '0';
                if (i + 2 < caption.size() && std::isdigit(static_cast<unsigned char>(caption[i + 2])))
                    k = 10 * k + (caption[i + 2] - '0');
                placeholders.insert(k);
            }
            const std::vector<std::string> numbers = spec.caption_numbers
                                                         ? spec.caption_numbers(spec, spec.scenario())
                                                         : std::vector<std::string>{};
            std::set<int> expected;
            for (std::size_t k = 1; k <= numbers.size(); ++k)
                expected.insert(static_cast<int>(k));
            EXPECT_EQ(placeholders, expected);
            for (const std::string& n : numbers)
                EXPECT_NE(n.find_first_of("0123456789"), std::string::npos) << n;
            numbers_in_all += static_cast<int>(numbers.size());
        }
    EXPECT_GE(numbers_in_all, 40);
}

// The captions' numbers follow their scenarios: Llama-2-7B's θ and d in its logits' caption, and a changed
// ALiBi head count in the slopes its caption quotes.
TEST(GalleryFigures, CaptionNumbersAreTheScenariosOwn)
{
    const auto spec_of = [](Method m, std::string_view stem) -> const GalleryFigureSpec& {
        for (const GalleryFigureSpec& spec : descriptor(m).gallery)
            if (spec.stem == stem)
                return spec;
        throw std::runtime_error("no gallery figure " + std::string(stem));
    };
    const GalleryFigureSpec& logits = spec_of(Method::RoPE, "rope-logits");
    EXPECT_EQ(logits.caption_numbers(logits, logits.scenario()), (std::vector<std::string>{"10000", "128"}));

    const GalleryFigureSpec& alibi = spec_of(Method::ALiBi, "alibi-bias-per-head");
    Scenario four = alibi.scenario();
    four.params<AlibiParams>().num_heads = 4; // slopes 2^-2 … 2^-8 (Press et al., get_slopes)
    EXPECT_EQ(alibi.caption_numbers(alibi, four), (std::vector<std::string>{"4", "4", "256"}));

    const GalleryFigureSpec& prope = spec_of(Method::RoPE, "prope-spectrum");
    EXPECT_EQ(prope.caption_numbers(prope, prope.scenario()),
              (std::vector<std::string>{"512", "10\u2076", "0.25", "64", "192"}));

    // The query patch's row and column on the method's own grid (patch_grid): the 16 x 16 grid's centre,
    // and Swin's 7 x 7 window's.
    const GalleryFigureSpec& rope2d = spec_of(kRope2D, "rope2d-patch-grid");
    EXPECT_EQ(rope2d.caption_numbers(rope2d, rope2d.scenario()),
              (std::vector<std::string>{"10000", "64", "16", "16", "8", "8"}));
    const GalleryFigureSpec& swin = spec_of(kSwin, "swin-patch-grid");
    EXPECT_EQ(swin.caption_numbers(swin, swin.scenario()),
              (std::vector<std::string>{"7", "0.02", "0", "3", "3"}));

    // M-RoPE's layout "text:5,image:1x4x6,text:3": the image's 4 x 6 patches merged by 2, and 64 pairs.
    const GalleryFigureSpec& layout = spec_of(kMRoPE, "mrope-token-layout");
    EXPECT_EQ(layout.caption_numbers(layout, layout.scenario()),
              (std::vector<std::string>{"4", "6", "2", "3", "64"}));
    const GalleryFigureSpec& logits16 = spec_of(kMRoPE, "mrope-logits");
    EXPECT_EQ(logits16.caption_numbers(logits16, logits16.scenario()),
              (std::vector<std::string>{"16/24/24", "10\u2076", "128", "16", "16", "16", "8", "8", "16"}));
}
