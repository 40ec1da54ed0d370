// SPDX-License-Identifier: GPL-3.0-or-later
// Every method's parameters in one value: a Scenario keeps the settings of each method (so that
// switching methods and back loses nothing) without naming the methods. One slot per parameter
// struct type, created on first write; a slot that was never written reads as the struct's defaults.
// Copies are deep, equality compares each struct with its own (defaulted) operator==.
#pragma once

#include <algorithm>
#include <memory>
#include <typeindex>
#include <utility>
#include <vector>

namespace posatlas {

class ParamSet
{
public:
    ParamSet() = default;
    ParamSet(const ParamSet& other) { copy_from(other); }
    ParamSet& operator=(const ParamSet& other)
    {
        if (this != &other) {
            m_slots.clear();
            copy_from(other);
        }
        return *this;
    }
    ParamSet(ParamSet&&) noexcept = default;
    ParamSet& operator=(ParamSet&&) noexcept = default;

    template <typename P> const P& get() const
    {
        if (const Slot* slot = find(typeid(P)))
            return static_cast<const Box<P>*>(slot)->value;
        static const P defaults{};
        return defaults;
    }
    template <typename P> P& get()
    {
        if (Slot* slot = find(typeid(P)))
            return static_cast<Box<P>*>(slot)->value;
        auto box = std::make_unique<Box<P>>();
        P& value = box->value;
        m_slots.emplace_back(std::type_index(typeid(P)), std::move(box));
        return value;
    }

    friend bool operator==(const ParamSet& a, const ParamSet& b) { return a.covers(b) && b.covers(a); }

private:
    struct Slot {
        virtual ~Slot() = default;
        virtual std::unique_ptr<Slot> clone() const = 0;
        virtual bool equals(const Slot* other) const = 0; // other == nullptr: compare with the defaults
    };
    template <typename P> struct Box final : Slot {
        P value{};
        std::unique_ptr<Slot> clone() const override { return std::make_unique<Box>(*this); }
        bool equals(const Slot* other) const override
        {
            return other ? value == static_cast<const Box*>(other)->value : value == P{};
        }
    };

    const Slot* find(std::type_index t) const
    {
        const auto it =
            std::find_if(m_slots.begin(), m_slots.end(), [&](const auto& e) { return e.first == t; });
        return it == m_slots.end() ? nullptr : it->second.get();
    }
    Slot* find(std::type_index t) { return const_cast<Slot*>(static_cast<const ParamSet*>(this)->find(t)); }
    // Every slot of this set equals the other's (or the defaults where the other has none).
    bool covers(const ParamSet& other) const
    {
        return std::all_of(m_slots.begin(), m_slots.end(),
                           [&](const auto& e) { return e.second->equals(other.find(e.first)); });
    }
    void copy_from(const ParamSet& other)
    {
        m_slots.reserve(other.m_slots.size());
        for (const auto& [type, slot] : other.m_slots)
            m_slots.emplace_back(type, slot->clone());
    }

    std::vector<std::pair<std::type_index, std::unique_ptr<Slot>>> m_slots;
};

} // namespace posatlas
