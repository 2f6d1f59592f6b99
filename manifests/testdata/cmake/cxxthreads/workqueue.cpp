#include "workqueue.hpp"

WorkQueue::WorkQueue(std::size_t workers) {
    for (std::size_t i = 0; i < workers; ++i) {
        workers_.emplace_back([this] { work(); });
    }
}

WorkQueue::~WorkQueue() { stop(); }

void WorkQueue::push(std::function<void()> job) {
    {
        std::lock_guard<std::mutex> lock(mu_);
        jobs_.push_back(std::move(job));
    }
    ready_.notify_one();
}

void WorkQueue::stop() {
    {
        std::lock_guard<std::mutex> lock(mu_);
        if (stopping_) {
            return;
        }
        stopping_ = true;
    }
    ready_.notify_all();
    for (auto &t : workers_) {
        t.join();
    }
}

void WorkQueue::work() {
    for (;;) {
        std::function<void()> job;
        {
            std::unique_lock<std::mutex> lock(mu_);
            ready_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
            if (jobs_.empty()) {
                return;
            }
            job = std::move(jobs_.front());
            jobs_.pop_front();
        }
        job();
    }
}
