#include "web/basic_auth.h"

#include <crypt.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <iostream>
#include <map>
#include <thread>
#include <vector>

#include "web/keyed_hash.h"
#include "web/web_config.h"

namespace ovn_raft {
namespace {

std::string Bcrypt(const std::string& password, unsigned long cost = 5) {
  char salt[CRYPT_GENSALT_OUTPUT_SIZE];
  EXPECT_NE(crypt_gensalt_rn("$2b$", cost, nullptr, 0, salt, sizeof(salt)), nullptr);
  crypt_data data{};
  return crypt_r(password.c_str(), salt, &data);
}

std::string Header(const std::string& user_pass) {
  static const char* kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  unsigned v = 0;
  int bits = -6;
  for (unsigned char c : user_pass) {
    v = (v << 8) + c;
    bits += 8;
    while (bits >= 0) {
      out += kAlphabet[(v >> bits) & 0x3f];
      bits -= 6;
    }
  }
  if (bits > -6) out += kAlphabet[((v << 8) >> (bits + 8)) & 0x3f];
  while (out.size() % 4) out += '=';
  return "Basic " + out;
}

TEST(BasicAuthTest, Base64) {
  EXPECT_EQ(DecodeBase64("cHJvbTpzZWNyZXQ="), "prom:secret");
  EXPECT_EQ(DecodeBase64("YQ=="), "a");
  EXPECT_EQ(DecodeBase64("!!"), "");
}

TEST(BasicAuthTest, ChecksBcryptAndCachesSuccess) {
  BasicAuth auth({{"prom", Bcrypt("secret")}});
  EXPECT_EQ(auth.Check(Header("prom:secret")), AuthResult::kAllowed);
  EXPECT_EQ(auth.Check(Header("prom:wrong")), AuthResult::kDenied);
  EXPECT_EQ(auth.Check(Header("eve:secret")), AuthResult::kDenied);
  EXPECT_EQ(auth.Check(""), AuthResult::kDenied);
  EXPECT_EQ(auth.Check("Bearer abc"), AuthResult::kDenied);
  EXPECT_EQ(auth.Check(Header("no-colon")), AuthResult::kDenied);
  // Cached: the second success skips bcrypt entirely.
  const std::uint64_t before = auth.bcrypt_calls();
  for (int i = 0; i < 100; ++i) EXPECT_EQ(auth.Check(Header("prom:secret")), AuthResult::kAllowed);
  EXPECT_EQ(auth.bcrypt_calls(), before);
  // A wrong password is never cached: each costs a bcrypt.
  for (int i = 0; i < 3; ++i) EXPECT_EQ(auth.Check(Header("prom:wrong")), AuthResult::kDenied);
  EXPECT_EQ(auth.bcrypt_calls(), before + 3);
}

TEST(BasicAuthTest, FloodOfWrongPasswordsIsThrottledAndTheCacheStaysBounded) {
  // Cost 12: a check takes long enough that the flood's checks overlap for sure.
  BasicAuth auth({{"prom", Bcrypt("secret", 12)}});
  ASSERT_EQ(auth.Check(Header("prom:secret"), "10.1.0.1"), AuthResult::kAllowed);  // now cached
  // 12 wrong passwords at once, each from a source of its own (one source never runs two
  // checks, so that alone would hold them to one): exactly kMaxConcurrentChecks run bcrypt at
  // once, at most kMaxWaiting wait, the rest get 429 at once; the cached right password
  // passes all along.
  std::atomic<int> denied{0}, throttled{0};
  std::vector<std::thread> flood;
  for (int i = 0; i < 12; ++i) {
    flood.emplace_back([&, i] {
      const auto r =
          auth.Check(Header("prom:wrong" + std::to_string(i)), "10.2.0." + std::to_string(i));
      (r == AuthResult::kThrottled ? throttled : denied)++;
      EXPECT_NE(r, AuthResult::kAllowed);
    });
  }
  EXPECT_EQ(auth.Check(Header("prom:secret"), "10.1.0.1"), AuthResult::kAllowed);
  for (auto& t : flood) t.join();
  EXPECT_EQ(denied + throttled, 12);
  EXPECT_EQ(auth.peak_checks(), BasicAuth::kMaxConcurrentChecks);
  EXPECT_GE(throttled.load(),
            12 - BasicAuth::kMaxConcurrentChecks - static_cast<int>(BasicAuth::kMaxWaiting));
  EXPECT_GE(denied.load(), BasicAuth::kMaxConcurrentChecks);
  // A password with a NUL byte is what crypt_r would cut short: refused, never cached.
  EXPECT_EQ(auth.Check(Header(std::string("prom:secret\0garbage", 20))), AuthResult::kDenied);
}

// A check that began before a reload must neither admit nor cache a password the reload
// revoked.
TEST(BasicAuthTest, ARevokedPasswordDoesNotComeBackFromACheckThatRacedAReload) {
  BasicAuth auth({{"prom", Bcrypt("old", 12)}});
  std::atomic<AuthResult> raced{AuthResult::kThrottled};
  std::thread check([&] { raced = auth.Check(Header("prom:old"), "10.3.0.1"); });
  // Wait until that check is inside bcrypt, then rotate the password.
  while (auth.bcrypt_calls() == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  auth.Replace({{"prom", Bcrypt("new", 5)}});
  check.join();
  EXPECT_EQ(raced.load(), AuthResult::kDenied);
  const std::uint64_t before = auth.bcrypt_calls();
  EXPECT_EQ(auth.Check(Header("prom:old"), "10.3.0.2"), AuthResult::kDenied);
  EXPECT_EQ(auth.bcrypt_calls(), before + 1) << "the revoked password was served from the cache";
  EXPECT_EQ(auth.Check(Header("prom:new"), "10.3.0.3"), AuthResult::kAllowed);
}

// An unknown name costs what a known one does, whatever the known one's cost, so that timing
// tells neither which names exist nor which cost a name has.
// The time of a check tells neither whether the name exists nor its cost: every check does the
// same bcrypt work (one hash per distinct cost among the users). Asserted on the work itself,
// which a busy machine cannot blur; the times are printed as figures.
TEST(BasicAuthTest, AnUnknownUserCostsWhatAKnownOneDoes) {
  BasicAuth auth({{"prom", Bcrypt("secret", 10)}, {"ops", Bcrypt("secret", 5)}});
  std::map<std::string, std::uint64_t> work;
  for (const char* name : {"prom", "ops", "eve"}) {
    const std::uint64_t calls = auth.bcrypt_calls(), before = auth.bcrypt_work();
    const auto t0 = std::chrono::steady_clock::now();
    EXPECT_EQ(auth.Check(Header(std::string(name) + ":wrong"), "10.4.1.1"), AuthResult::kDenied);
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - t0;
    work[name] = auth.bcrypt_work() - before;
    EXPECT_EQ(auth.bcrypt_calls(), calls + 2) << name;
    std::cout << "[ figures  ] " << name << ": " << took.count() << " s, work " << work[name]
              << "\n";
  }
  EXPECT_EQ(work["prom"], (1u << 10) + (1u << 5));
  EXPECT_EQ(work["ops"], work["prom"]);
  EXPECT_EQ(work["eve"], work["prom"]);
  // Still each user's own hash that decides.
  EXPECT_EQ(auth.Check(Header("ops:secret"), "10.4.1.2"), AuthResult::kAllowed);
  EXPECT_EQ(auth.Check(Header("prom:secret"), "10.4.1.3"), AuthResult::kAllowed);
}

TEST(KeyedHashTest, SipHashReferenceVectorsAndAProcessKey) {
  const std::uint64_t k0 = 0x0706050403020100ULL, k1 = 0x0f0e0d0c0b0a0908ULL;
  std::string fifteen;
  for (char c = 0; c < 15; ++c) fifteen += c;
  EXPECT_EQ(SipHash24(k0, k1, ""), 0x726fdb47dd0e0e31ULL);
  EXPECT_EQ(SipHash24(k0, k1, fifteen), 0xa129ca6149be45e5ULL);
  EXPECT_EQ(KeyedHash("prom:secret"), KeyedHash("prom:secret"));
  EXPECT_NE(KeyedHash("prom:secret"), KeyedHash("prom:secreT"));
  // Keyed: not the hash under a key anyone knows.
  EXPECT_NE(KeyedHash("prom:secret")[0], SipHash24(0, 0, "prom:secret"));
}

// Waits until `n` checks run at once in `auth`; false after a minute.
bool AwaitChecksRunning(const BasicAuth& auth, int n) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(1);
  while (auth.checks_running() != n) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

TEST(BasicAuthTest, ASourceThatGuessedWrongNeverGoesBeforeOneThatDidNot) {
  // Cost 12: each check slow enough that the checks overlap for sure. A waiter's bound far
  // beyond a check, so that a slow machine cannot turn "waits its turn" into a 429.
  BasicAuth auth({{"prom", Bcrypt("secret", 12)}}, std::chrono::minutes(1));
  ASSERT_EQ(auth.Check(Header("prom:wrong"), "10.0.0.9"), AuthResult::kDenied);  // now suspect
  // Two clean sources take both slots with wrong passwords.
  std::vector<std::thread> busy;
  for (const char* source : {"10.0.0.1", "10.0.0.2"}) {
    busy.emplace_back([&auth, source] {
      EXPECT_EQ(auth.Check(Header("prom:wrong"), source), AuthResult::kDenied);
    });
  }
  EXPECT_TRUE(AwaitChecksRunning(auth, 2));
  // The suspect is refused at once (had it waited for a slot, it would have been denied by
  // bcrypt, or throttled only after a minute); the clean source waits for a slot and gets in.
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(auth.Check(Header("prom:wrong2"), "10.0.0.9"), AuthResult::kThrottled);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(30));
  EXPECT_EQ(auth.Check(Header("prom:secret"), "10.0.0.3"), AuthResult::kAllowed);
  for (auto& t : busy) t.join();
  EXPECT_EQ(auth.peak_checks(), BasicAuth::kMaxConcurrentChecks);
  // A source is never in line twice.
  std::thread first([&] { auth.Check(Header("prom:wrong3"), "10.0.0.4"); });
  EXPECT_TRUE(AwaitChecksRunning(auth, 1));
  EXPECT_EQ(auth.Check(Header("prom:wrong4"), "10.0.0.4"), AuthResult::kThrottled);
  first.join();
}

// Waits until `n` checks wait in `auth`; false after a minute.
bool AwaitWaiting(const BasicAuth& auth, std::size_t n) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(1);
  while (auth.waiting() != n) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

// A wrong password from `source`, never checked before, on a thread of its own; `throttled`
// counts its 429.
std::thread Guess(BasicAuth& auth, const std::string& source, std::atomic<int>& throttled) {
  return std::thread([&auth, &throttled, source] {
    const auto r = auth.Check(Header("prom:wrong-" + source), source);
    EXPECT_NE(r, AuthResult::kAllowed);
    throttled += r == AuthResult::kThrottled;
  });
}

// A start into a flood: sources guessing since before the scraper first asked fill the slots
// and the line; the scraper, first seen after them all, takes the place of the one first seen
// earliest and goes next, rather than waiting for every one of them (or getting 429).
TEST(BasicAuthTest, AScraperFirstSeenAfterAFloodGoesBeforeIt) {
  // Cost 11: each check slow enough that the line fills before a slot frees.
  BasicAuth auth({{"prom", Bcrypt("secret", 11)}}, std::chrono::minutes(1));
  std::atomic<int> throttled{0};
  std::vector<std::thread> flood;
  for (const char* source : {"10.5.0.1", "10.5.0.2"})
    flood.push_back(Guess(auth, source, throttled));
  EXPECT_TRUE(AwaitChecksRunning(auth, 2));
  for (std::size_t i = 0; i < BasicAuth::kMaxWaiting; ++i) {
    flood.push_back(Guess(auth, "10.5.1." + std::to_string(i), throttled));
    EXPECT_TRUE(AwaitWaiting(auth, i + 1));
  }
  EXPECT_EQ(auth.Check(Header("prom:secret"), "10.5.2.1"), AuthResult::kAllowed);
  // Not after every waiter: the two under way, its own, and what the other slot did meanwhile.
  EXPECT_LT(auth.bcrypt_calls(), 3 + BasicAuth::kMaxWaiting);
  for (auto& t : flood) t.join();
  EXPECT_EQ(throttled.load(), 1);  // the one that gave its place
  EXPECT_EQ(auth.peak_checks(), BasicAuth::kMaxConcurrentChecks);
}

// A reload keeps what it did not change: a password verified against a hash it kept is still
// verified; a source whose user it kept still goes first, under the user's new hash too.
TEST(BasicAuthTest, AReloadKeepsWhatItDidNotChange) {
  const std::string kept = Bcrypt("secret", 5);
  BasicAuth cheap({{"prom", kept}, {"ops", Bcrypt("ops", 5)}});
  ASSERT_EQ(cheap.Check(Header("prom:secret"), "10.6.0.1"), AuthResult::kAllowed);
  ASSERT_EQ(cheap.Check(Header("ops:ops"), "10.6.0.2"), AuthResult::kAllowed);
  cheap.Replace({{"prom", kept}, {"ops", Bcrypt("ops", 5)}});  // ops's password hashed anew
  const std::uint64_t before = cheap.bcrypt_calls();
  EXPECT_EQ(cheap.Check(Header("prom:secret"), "10.6.0.1"), AuthResult::kAllowed);
  EXPECT_EQ(cheap.bcrypt_calls(), before) << "a password verified against a kept hash";
  EXPECT_EQ(cheap.Check(Header("ops:ops"), "10.6.0.2"), AuthResult::kAllowed);
  EXPECT_EQ(cheap.bcrypt_calls(), before + 1) << "a password whose hash changed";

  BasicAuth auth({{"prom", Bcrypt("secret", 11)}}, std::chrono::minutes(1));
  ASSERT_EQ(auth.Check(Header("prom:secret"), "10.6.0.1"), AuthResult::kAllowed);
  auth.Replace({{"prom", Bcrypt("secret", 11)}});  // a rotation: the same password hashed anew
  const std::uint64_t at_reload = auth.bcrypt_calls();
  // Both slots busy, the scraper asks, then sources seen after it fill the line: were it not
  // first, the last of them would take its place (it was seen earliest).
  std::atomic<int> throttled{0};
  std::vector<std::thread> flood;
  for (const char* source : {"10.6.1.1", "10.6.1.2"})
    flood.push_back(Guess(auth, source, throttled));
  EXPECT_TRUE(AwaitChecksRunning(auth, 2));
  std::atomic<AuthResult> scraper{AuthResult::kThrottled};
  std::thread asks([&] { scraper = auth.Check(Header("prom:secret"), "10.6.0.1"); });
  EXPECT_TRUE(AwaitWaiting(auth, 1));
  for (std::size_t i = 0; i < BasicAuth::kMaxWaiting; ++i) {
    flood.push_back(Guess(auth, "10.6.2." + std::to_string(i), throttled));
    EXPECT_TRUE(AwaitWaiting(auth, i + 2));
  }
  asks.join();
  EXPECT_EQ(scraper.load(), AuthResult::kAllowed);
  EXPECT_LT(auth.bcrypt_calls(), at_reload + 3 + BasicAuth::kMaxWaiting);  // as above
  for (auto& t : flood) t.join();
  EXPECT_EQ(throttled.load(), 0);
}

TEST(BasicAuthTest, TheSchemeIsCaseInsensitive) {
  BasicAuth auth(std::map<std::string, std::string>{
      {"prom", "$2b$05$4U7RpmTTCO91HYF2e1qjqeugfqW8Co.i5bp3Pci8Rn7Z95ROgloKG"}});
  for (const char* scheme : {"Basic ", "basic ", "BASIC ", "bAsIc "}) {
    EXPECT_EQ(auth.Check(std::string(scheme) + "cHJvbTpzZWNyZXQ="), AuthResult::kAllowed) << scheme;
  }
  EXPECT_EQ(auth.Check("Bearer cHJvbTpzZWNyZXQ="), AuthResult::kDenied);
  EXPECT_EQ(auth.Check("Basi"), AuthResult::kDenied);
}

TEST(WebConfigTest, ParsesUsers) {
  const auto c = ParseWebConfig(
      "# comment\nbasic_auth_users:\n  prom: "
      "$2y$10$MEEV9maf28w2vOV3tgyO5ehSZdbDk0gRLikQNI2e0NG6DQ3XX7JT6\n"
      "  \"ops\": '$2b$05$4U7RpmTTCO91HYF2e1qjqeugfqW8Co.i5bp3Pci8Rn7Z95ROgloKG'\n");
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_EQ(c.value().basic_auth_users.size(), 2u);
  EXPECT_EQ(c.value().basic_auth_users.at("ops"),
            "$2b$05$4U7RpmTTCO91HYF2e1qjqeugfqW8Co.i5bp3Pci8Rn7Z95ROgloKG");
}

// Fail closed. Each of these, accepted at start, would then refuse everyone (or, for a
// duplicate, silently keep the last; for cost 31, pin every check slot for hours).
TEST(WebConfigTest, RefusesHashesItCouldNotCheckAndDuplicateUsers) {
  const std::string good = "$2b$05$4U7RpmTTCO91HYF2e1qjqeugfqW8Co.i5bp3Pci8Rn7Z95ROgloKG";
  const std::pair<std::string, std::string> cases[] = {
      {"$2", "is not a bcrypt hash"},
      {good.substr(0, 40), "is not a bcrypt hash"},
      {"$2b$99$" + good.substr(7), "cost 99, outside 4 to 12"},
      {"$2b$31$" + good.substr(7), "cost 31, outside 4 to 12"},
      {"$2b$13$" + good.substr(7), "hash the password again with: htpasswd -nBC 12 prom"},
      {"$2b$16$" + good.substr(7), "cost 16, outside 4 to 12"},
      {"$2b$03$" + good.substr(7), "cost 03, outside 4 to 12"},
      {"$2z$05$" + good.substr(7), "is not a bcrypt hash"},
      {good.substr(0, 59) + "!", "'!' is not bcrypt base64"},
  };
  for (const auto& [hash, why] : cases) {
    const auto c = ParseWebConfig("basic_auth_users:\n  prom: '" + hash + "'\n");
    ASSERT_FALSE(c.ok()) << hash;
    EXPECT_NE(c.error().message.find(why), std::string::npos) << hash << ": " << c.error().message;
  }
  const auto twice =
      ParseWebConfig("basic_auth_users:\n  prom: " + good + "\n  prom: " + good + "\n");
  ASSERT_FALSE(twice.ok());
  EXPECT_NE(twice.error().message.find("user prom is listed twice"), std::string::npos);
}

// exporter-toolkit's rate_limit: a Go duration and a count; what would refuse every request, or
// read a bare number as nanoseconds, is refused with the reason.
TEST(WebConfigTest, RateLimit) {
  const auto c = ParseWebConfig("rate_limit:\n  interval: \"1m30s\"\n  burst: 10\n");
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_EQ(c.value().rate_limit.interval, std::chrono::seconds(90));
  EXPECT_EQ(c.value().rate_limit.burst, 10);
  EXPECT_TRUE(c.value().basic_auth_users.empty());
  const auto off = ParseWebConfig("rate_limit:\n  interval: 0\n  burst: 0\n");
  ASSERT_TRUE(off.ok()) << off.error().message;
  EXPECT_EQ(off.value().rate_limit.interval.count(), 0);
  EXPECT_EQ(ParseWebConfig("").value().rate_limit, RateLimit{});
  const std::pair<std::string, std::string> cases[] = {
      {"  interval: 1s\n", "burst is 0 with an interval"},
      {"  interval: 1\n  burst: 1\n", "is not a duration"},
      {"  interval: -1s\n  burst: 1\n", "is not a duration"},
      {"  interval: soon\n  burst: 1\n", "is not a duration"},
      {"  interval: 1s\n  burst: -1\n", "burst must be a number"},
      {"  period: 1s\n", "rate_limit.period is not one of interval, burst"},
  };
  for (const auto& [body, why] : cases) {
    const auto bad = ParseWebConfig("rate_limit:\n" + body);
    ASSERT_FALSE(bad.ok()) << body;
    EXPECT_NE(bad.error().message.find(why), std::string::npos)
        << body << ": " << bad.error().message;
  }
}

TEST(WebConfigTest, RefusesADirectory) {
  // A Kubernetes Secret mounted without subPath: a directory, which reads as empty.
  const auto dir = LoadWebConfig("/tmp");
  ASSERT_FALSE(dir.ok());
  EXPECT_NE(dir.error().message.find("is a directory"), std::string::npos) << dir.error().message;
}

TEST(WebConfigTest, RefusesPlainPasswordsAndUnknownSettings) {
  EXPECT_FALSE(ParseWebConfig("basic_auth_users:\n  prom: hunter2\n").ok());
  EXPECT_FALSE(ParseWebConfig("mystery: 1\n").ok());
  EXPECT_FALSE(LoadWebConfig("/nonexistent/web.yml").ok());
}

}  // namespace
}  // namespace ovn_raft
