# Test::More script that bails out: the planned tests after it never run.
use strict;
use warnings;
use Test::More tests => 4;

ok(1, 'connects');
subtest 'queries' => sub {
    plan tests => 3;
    ok(1, 'selects');
    BAIL_OUT('database went away');
};
ok(1, 'never runs');
