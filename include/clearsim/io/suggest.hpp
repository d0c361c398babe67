// Suggestions for a mistyped name (a model-file key, a channel, a command-line option or
// command): the closest candidate when it is plausibly a typo of the word.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace cs {

// The word of `candidates` closest to `word` (edit distance) when it is plausibly a typo of it:
// at most about a third of the word changed (at least 2 edits allowed), and some of it kept.
// Empty if none is close.
std::string closest(std::string_view word, const std::vector<std::string>& candidates);
// "; did you mean 'mass'?" or "".
std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace cs
