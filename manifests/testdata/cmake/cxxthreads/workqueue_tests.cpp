// One program, one test per argument, as CTest registers them.
#include <atomic>
#include <cstdio>
#include <cstring>

#include "workqueue.hpp"

static int sum_on_workers() {
    std::atomic<int> sum{0};
    std::mutex mu;
    std::vector<std::thread::id> seen;
    {
        WorkQueue q(4);
        for (int i = 1; i <= 100; ++i) {
            q.push([&sum, &mu, &seen, i] {
                sum += i;
                std::lock_guard<std::mutex> lock(mu);
                seen.push_back(std::this_thread::get_id());
            });
        }
    }
    if (sum != 5050 || seen.size() != 100) {
        std::fprintf(stderr, "sum %d over %zu jobs, want 5050 over 100\n", sum.load(), seen.size());
        return 1;
    }
    return 0;
}

static int drain_on_stop() {
    std::atomic<int> ran{0};
    WorkQueue q(2);
    for (int i = 0; i < 10; ++i) {
        q.push([&ran] { std::this_thread::yield(); ++ran; });
    }
    q.stop();
    if (ran != 10) {
        std::fprintf(stderr, "%d of 10 jobs ran before stop returned\n", ran.load());
        return 1;
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 2 && std::strcmp(argv[1], "sum_on_workers") == 0) return sum_on_workers();
    if (argc == 2 && std::strcmp(argv[1], "drain_on_stop") == 0) return drain_on_stop();
    std::fprintf(stderr, "usage: workqueue_tests sum_on_workers|drain_on_stop\n");
    return 2;
}
