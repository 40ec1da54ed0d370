// SPDX-License-Identifier: GPL-3.0-or-later
// The gallery figures the methods declare (MethodDescriptor::gallery, methods/gallery_figure.h): each a
// valid scenario of its own method, named once, captioned, with a kind and a view the method has. The
// rendering of each, and the gallery's order, are checked in ui_gallery_tests.
#include "methods/registry.h"
#include "scenario/params.h"
#include "scenario/validation.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

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
