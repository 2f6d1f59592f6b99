"""unittest cases for the regex parser: each shows one outcome.

Run with `python3 -m unittest -v test_calc`; the verbose lines
"test_adds (test_calc.CalcTest.test_adds) ... ok" are what the manifest's
pattern in regex_test.go reads.
"""

import unittest


class CalcTest(unittest.TestCase):
    def test_adds(self):
        self.assertEqual(1 + 1, 2)

    def test_fails(self):
        self.assertEqual(1 + 1, 3, "deliberate failure")

    def test_raises(self):
        raise RuntimeError("unexpected")

    @unittest.skip("not on this platform")
    def test_skipped(self):
        pass

    @unittest.expectedFailure
    def test_known_bug(self):
        self.assertEqual(1, 2)

    def test_subtests(self):
        for n in (1, 2):
            with self.subTest(n=n):
                self.assertLess(n, 2)


class PathTest(unittest.TestCase):
    def test_joins(self):
        self.assertEqual("a" + "/" + "b", "a/b")


if __name__ == "__main__":
    unittest.main()
