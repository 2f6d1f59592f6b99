// A queue of jobs drained by worker threads: what C++ libraries use
// std::thread, std::mutex and std::condition_variable for, and what
// mingw-w64's win32-thread g++ 12 does not have.
#pragma once
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

class WorkQueue {
public:
    explicit WorkQueue(std::size_t workers);
    ~WorkQueue();
    void push(std::function<void()> job);
    // stop runs every job already pushed, then joins the workers.
    void stop();

private:
    void work();
    std::mutex mu_;
    std::condition_variable ready_;
    std::deque<std::function<void()>> jobs_;
    std::vector<std::thread> workers_;
    bool stopping_ = false;
};
