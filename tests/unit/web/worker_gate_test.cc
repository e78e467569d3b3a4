// The worker gate alone, with threads standing in for civetweb's workers, then in front of a real
// HttpServer: connections that hold every core worker (idle TCP, a TLS handshake never begun)
// still leave a request served at once by a worker let through the gate.
#include "web/worker_gate.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "support/loopback.h"
#include "support/shell.h"
#include "support/temp_dir.h"
#include "web/http_server.h"
#include "web/listen_address.h"
#include "web/tls_context.h"

namespace ovn_raft {
namespace {

using std::chrono::milliseconds;

// Waits up to 2 s for `done`.
bool Within2s(const std::function<bool()>& done) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  while (!done()) {
    if (std::chrono::steady_clock::now() > end) return false;
    std::this_thread::sleep_for(milliseconds(2));
  }
  return true;
}

// A stand-in for one civetweb worker: enters the gate, then takes and ends connections when told.
class Worker {
 public:
  explicit Worker(WorkerGate& gate)
      : thread_([this, &gate] {
          gate.Enter();
          entered_ = true;
          for (;;) {
            const int step = NextStep();
            if (step == kStop) return;
            if (step == kTake) gate.Taken();
            if (step == kEnd) gate.Ended();
            if (step == kRunTask) ran_on_caller_ = RunsOnCaller();
            done_ = step;
          }
        }) {}
  ~Worker() { thread_.join(); }
  bool entered() const { return entered_; }
  // Asks the worker for a step; Did tells when it is done (never while it waits in the gate).
  void Do(int step) {
    done_ = 0;
    step_ = step;
  }
  bool Did(int step) const { return done_ == step; }
  // Do(step), then whether it was done within 2 s.
  bool Step(int step) {
    Do(step);
    return Within2s([&] { return Did(step); });
  }
  bool ran_on_caller() const { return ran_on_caller_; }
  static constexpr int kTake = 1, kEnd = 2, kRunTask = 3, kStop = 4;

 private:
  int NextStep() {
    int step;
    while ((step = step_.exchange(0)) == 0) std::this_thread::sleep_for(milliseconds(1));
    return step;
  }
  static bool RunsOnCaller() { return !WorkerGate::HandsWorkOff(); }
  std::atomic<int> step_{0}, done_{0};
  std::atomic<bool> entered_{false}, ran_on_caller_{false};
  std::thread thread_;
};

// Stops the workers however the test ends, a failed assertion included: the gate lets every
// waiting one through first, so that none is left to join forever.
class Stopper {
 public:
  Stopper(WorkerGate& gate, std::vector<std::unique_ptr<Worker>>& workers)
      : gate_(gate), workers_(workers) {}
  ~Stopper() {
    gate_.Open();
    for (auto& w : workers_) w->Do(Worker::kStop);
  }

 private:
  WorkerGate& gate_;
  std::vector<std::unique_ptr<Worker>>& workers_;
};

TEST(WorkerGateTest, TheCoreServesAloneUntilNoWorkerIsFreeThenTheLastToWaitComesIn) {
  WorkerGate gate(6, 2);
  std::vector<std::unique_ptr<Worker>> w;
  const Stopper stop(gate, w);
  for (int i = 0; i < 6; ++i) {
    w.push_back(std::make_unique<Worker>(gate));
    // One at a time, so that the first two are the core and the waiting order is known.
    ASSERT_TRUE(
        Within2s([&] { return i < 2 ? w[i]->entered() : gate.waiting_workers() == i - 1; }));
  }
  EXPECT_TRUE(w[0]->entered() && w[1]->entered());
  EXPECT_EQ(gate.waiting_workers(), 4);
  EXPECT_EQ(gate.free_workers(), 2);

  // The core runs the pools' tasks itself; a reserve worker hands them over.
  ASSERT_TRUE(w[0]->Step(Worker::kRunTask));
  EXPECT_TRUE(w[0]->ran_on_caller());

  // One core worker busy: the other is free, nobody comes in.
  ASSERT_TRUE(w[0]->Step(Worker::kTake));
  EXPECT_EQ(gate.waiting_workers(), 4);
  // Both busy: the last worker to wait comes in, free for the next connection.
  w[1]->Do(Worker::kTake);
  ASSERT_TRUE(Within2s([&] { return w[5]->entered(); }));
  EXPECT_FALSE(w[2]->entered() || w[3]->entered() || w[4]->entered());
  EXPECT_EQ(gate.free_workers(), 1);
  // It takes one too: the next comes in.
  w[5]->Do(Worker::kTake);
  ASSERT_TRUE(Within2s([&] { return w[4]->entered(); }));
  EXPECT_EQ(gate.waiting_workers(), 2);
  ASSERT_TRUE(w[5]->Step(Worker::kRunTask));
  EXPECT_FALSE(w[5]->ran_on_caller());

  // A second Taken for the same connection changes nothing.
  ASSERT_TRUE(w[5]->Step(Worker::kTake));
  EXPECT_EQ(gate.waiting_workers(), 2);

  // Its connection ended while another worker is free: the reserve worker waits again.
  w[5]->Do(Worker::kEnd);
  ASSERT_TRUE(Within2s([&] { return gate.waiting_workers() == 3; }));
  // A core worker never waits.
  ASSERT_TRUE(w[0]->Step(Worker::kEnd));
  EXPECT_EQ(gate.waiting_workers(), 3);

  gate.Open();
  EXPECT_EQ(gate.waiting_workers(), 0);
}

// A burst can come while civetweb is still starting workers: one that starts when no worker in
// the queue is free goes there at once, since nobody waiting here could be let in for it.
TEST(WorkerGateTest, AWorkerStartingWhileNoneIsFreeGoesStraightIn) {
  WorkerGate gate(3, 1);
  std::vector<std::unique_ptr<Worker>> w;
  const Stopper stop(gate, w);
  w.push_back(std::make_unique<Worker>(gate));
  ASSERT_TRUE(Within2s([&] { return w[0]->entered(); }));
  ASSERT_TRUE(w[0]->Step(Worker::kTake));
  EXPECT_EQ(gate.free_workers(), 0);
  w.push_back(std::make_unique<Worker>(gate));
  ASSERT_TRUE(Within2s([&] { return w[1]->entered(); }));
  EXPECT_EQ(gate.free_workers(), 1);
  // One is free now: the next to start waits.
  w.push_back(std::make_unique<Worker>(gate));
  ASSERT_TRUE(Within2s([&] { return gate.waiting_workers() == 1; }));
  EXPECT_FALSE(w[2]->entered());
}

TEST(WorkerGateTest, AnOpenGateKeepsNobody) {
  WorkerGate gate(3, 1);
  gate.Open();
  std::vector<std::unique_ptr<Worker>> w;
  const Stopper stop(gate, w);
  for (int i = 0; i < 3; ++i) {
    w.push_back(std::make_unique<Worker>(gate));
    ASSERT_TRUE(Within2s([&] { return w[i]->entered(); }));  // one at a time: w[1] is reserve
  }
  ASSERT_TRUE(w[1]->Step(Worker::kTake));
  ASSERT_TRUE(w[1]->Step(Worker::kEnd));
  EXPECT_EQ(gate.waiting_workers(), 0);
}

// A server of 16 workers (4 core) whose request timeout outlasts the test, whose handler notes
// the thread it runs on; connections that send nothing; requests by curl.
class HeldWorkersTest : public ::testing::Test {
 protected:
  void Serve() {
    HttpServerOptions o;
    o.threads = 16;
    o.request_timeout = std::chrono::seconds(20);
    o.connections_per_source = 64;  // every held connection keeps its worker
    o.tls = tls_.get();
    const auto loopback = ParseListenAddress("127.0.0.1:0");
    ASSERT_TRUE(loopback.ok());
    ASSERT_FALSE(server_.Start({loopback.value()}, o).has_value());
  }
  void Hold(int n) {
    for (int i = 0; i < n; ++i) {
      const int fd = testing::ConnectLoopback(server_.port());
      ASSERT_GE(fd, 0);
      held_.push_back(fd);
    }
    std::this_thread::sleep_for(milliseconds(200));  // each has a worker by now
  }
  std::string Request(const std::string& scheme) {
    return testing::Shell("curl -sk -o /dev/null --max-time 10 -w '%{http_code} %{time_total}' " +
                          scheme + "://127.0.0.1:" + std::to_string(server_.port()) + "/");
  }
  void TearDown() override {
    for (int fd : held_) close(fd);
  }
  std::unique_ptr<TlsContext> tls_;  // outlives the server that uses it
  std::mutex mu_;
  std::set<std::thread::id> handlers_;  // guarded by mu_
  HttpServer server_{[this](const HttpRequest&) {
    const std::lock_guard<std::mutex> lock(mu_);
    handlers_.insert(std::this_thread::get_id());
    return HttpResponse{200, "text/plain", "ok\n", {}};
  }};
  std::vector<int> held_;
};

// civetweb alone would hand 40 requests in a row to all 16 workers in turn.
TEST_F(HeldWorkersTest, RequestsOneAfterAnotherMeetOnlyTheCore) {
  Serve();
  for (int i = 0; i < 40; ++i) ASSERT_EQ(Request("http").substr(0, 4), "200 ");
  const std::lock_guard<std::mutex> lock(mu_);
  std::printf("[ gate ] 40 requests one after another ran on %zu threads\n", handlers_.size());
  EXPECT_LE(handlers_.size(), 4U);
}

// After a burst that let reserve workers in, they go back to the gate as their connections end,
// and requests one after another meet only the core again.
TEST_F(HeldWorkersTest, ReserveWorkersGoBackAfterABurst) {
  Serve();
  Hold(12);
  for (int fd : held_) close(fd);
  held_.clear();
  std::this_thread::sleep_for(milliseconds(200));
  for (int i = 0; i < 8; ++i) ASSERT_EQ(Request("http").substr(0, 4), "200 ");  // the last few go
  {
    const std::lock_guard<std::mutex> lock(mu_);
    handlers_.clear();
  }
  for (int i = 0; i < 40; ++i) ASSERT_EQ(Request("http").substr(0, 4), "200 ");
  const std::lock_guard<std::mutex> lock(mu_);
  std::printf("[ gate ] after the burst, 40 requests ran on %zu threads\n", handlers_.size());
  EXPECT_LE(handlers_.size(), 4U);
}

TEST_F(HeldWorkersTest, IdleConnectionsOnEveryCoreWorkerLeaveARequestServedAtOnce) {
  Serve();
  Hold(12);
  const std::string answer = Request("http");
  std::printf("[ gate ] 12 idle connections held, then a request: %s\n", answer.c_str());
  ASSERT_EQ(answer.substr(0, 4), "200 ") << answer;
  EXPECT_LT(std::atof(answer.c_str() + 4), 5.0) << answer;  // held: curl's 10 s
}

TEST_F(HeldWorkersTest, HandshakesNeverBegunOnEveryCoreWorkerLeaveARequestServedAtOnce) {
  if (!TlsContext::Available()) GTEST_SKIP() << "built with the system's civetweb: no TLS";
  testing::TempDir dir("ovn-raft-gate-tls");
  ASSERT_EQ(testing::Shell("cd " + dir.path() +
                           " && openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 "
                           "-nodes -keyout s.key -out s.crt -days 1 -subj /CN=s >/dev/null 2>&1; "
                           "test -s s.crt && echo made"),
            "made\n");
  TlsServerConfig config;
  config.cert_file = dir.path() + "/s.crt";
  config.key_file = dir.path() + "/s.key";
  auto tls = TlsContext::Create(config);
  ASSERT_TRUE(tls.ok()) << tls.error().message;
  tls_ = std::move(tls).value();
  Serve();
  Hold(12);
  const std::string answer = Request("https");
  std::printf("[ gate ] 12 TLS connections without a ClientHello, then a request: %s\n",
              answer.c_str());
  ASSERT_EQ(answer.substr(0, 4), "200 ") << answer;
  EXPECT_LT(std::atof(answer.c_str() + 4), 5.0) << answer;  // held: curl's 10 s
}

}  // namespace
}  // namespace ovn_raft
