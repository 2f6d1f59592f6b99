# Test::More script for the tap parser: each test shows one outcome.
use strict;
use warnings;
use Test::More tests => 8;

ok(1, 'adds numbers');
ok(0, 'fails on purpose');
SKIP: {
    skip 'needs a network', 1;
    ok(1, 'downloads');
}
TODO: {
    local $TODO = 'not written yet';
    ok(0, 'parses dates');
}
TODO: {
    local $TODO = 'fixed by accident';
    ok(1, 'parses times');
}
subtest 'paths' => sub {
    plan tests => 3;
    ok(1, 'joins');
    ok(0, 'splits C:\\x');
    subtest 'nested' => sub {
        ok(1, 'deep');
        done_testing();
    };
};
ok(1, 'escapes # a hash');
ok(1);
