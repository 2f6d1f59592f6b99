// GoogleTest cases for the junit parser: each shows one outcome.
#include <gtest/gtest.h>

TEST(Math, Adds) { EXPECT_EQ(1 + 1, 2); }

TEST(Math, Fails) { EXPECT_EQ(1 + 1, 3) << "deliberate failure"; }

TEST(Math, DISABLED_NotRun) {}

TEST(Math, Skips) { GTEST_SKIP() << "not on this platform"; }

class Param : public ::testing::TestWithParam<int> {};

TEST_P(Param, IsSmall) { EXPECT_LT(GetParam(), 10); }

INSTANTIATE_TEST_SUITE_P(Values, Param, ::testing::Values(1, 20));
