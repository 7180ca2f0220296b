// A Witches' Brew bot (CodinGame Fall Challenge 2020) for gauntlet's
// "Tune your own bot" walk-through: a beam search over its own actions
// (CAST, REST, LEARN, BREW) a few turns deep, with its constants on the
// command line so that gauntlet can tune them:
//
//   bot [--depth N] [--width N] [--decay X] [--w-inv X] [--w-tier3 X] [--learn-turns N]
//
// It speaks the CodinGame protocol on stdin/stdout and prints one action per
// turn. The search ignores the opponent and the orders and spells that
// would be dealt later: a small heuristic bot, not a contest winner.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <unordered_set>
#include <vector>

namespace {

struct Params {
    int depth = 6;          // turns searched ahead
    int width = 150;        // states kept per turn
    double decay = 0.95;    // a rupee one turn later is worth decay rupees now
    double w_inv = 1.0;     // weight of the ingredients held at the horizon
    double w_tier3 = 4.0;   // value of a tier-3 ingredient (tier t is worth (t+1) / 4 of it)
    int learn_turns = 6;    // game turns in which the search may learn spells
};

struct Spell {
    int id;
    int d[4];
    bool repeatable;
};

struct Order {
    int id;
    int cost[4];  // positive
    int price;
};

struct Learnable {
    int id;
    int d[4];
    int index;
    int stock;
    bool repeatable;
};

constexpr int kMaxSpells = 48;

struct Node {
    int inv[4];
    double value;            // rupees earned so far, discounted
    uint64_t castable;       // bit i: spells[i] is ready
    uint64_t known;          // bit i: spells[i] is owned (learnt ones become owned)
    uint32_t orders;         // bit k: orders[k] still open
    uint32_t tome;           // bit k: tome[k] still there
    int first;               // the root action this line started with (index into actions)
    double eval;
};

struct Action {
    std::string text;
};

int total(const int* inv) { return inv[0] + inv[1] + inv[2] + inv[3]; }

class Bot {
  public:
    explicit Bot(Params p) : p_(p) {}

    std::string turn(const std::vector<Spell>& mine, const std::vector<bool>& ready, const std::vector<Order>& orders,
                     const std::vector<Learnable>& tome, const int inv[4], int turn) {
        spells_ = mine;
        learnSpell_.assign(spells_.size(), -1);
        // Learnable spells become (not yet owned) spells of the search.
        for (size_t k = 0; k < tome.size() && spells_.size() < kMaxSpells; k++) {
            Spell s{tome[k].id, {tome[k].d[0], tome[k].d[1], tome[k].d[2], tome[k].d[3]}, tome[k].repeatable};
            spells_.push_back(s);
            learnSpell_.push_back(int(k));
        }
        orders_ = orders;
        tome_ = tome;
        actions_.clear();

        Node root{};
        std::memcpy(root.inv, inv, sizeof root.inv);
        for (size_t i = 0; i < mine.size(); i++) {
            root.known |= uint64_t(1) << i;
            if (ready[i]) root.castable |= uint64_t(1) << i;
        }
        root.orders = orders.size() >= 32 ? ~0u : (1u << orders.size()) - 1;
        root.tome = tome.size() >= 32 ? ~0u : (1u << tome.size()) - 1;
        root.first = -1;

        std::vector<Node> beam{root}, next;
        Node best = root;
        best.eval = -1e18;
        double discount = 1;
        for (int d = 0; d < p_.depth && !beam.empty(); d++) {
            next.clear();
            std::unordered_set<uint64_t> seen;
            bool mayLearn = turn + d < p_.learn_turns;
            for (const Node& n : beam) expand(n, d == 0, mayLearn, discount, next, seen);
            for (Node& n : next) {
                n.eval = n.value + p_.w_inv * discount * p_.decay * invValue(n.inv);
                if (n.eval > best.eval) best = n;
            }
            if ((int)next.size() > p_.width) {
                std::nth_element(next.begin(), next.begin() + p_.width, next.end(),
                                 [](const Node& a, const Node& b) { return a.eval > b.eval; });
                next.resize(p_.width);
            }
            beam.swap(next);
            discount *= p_.decay;
        }
        if (best.first < 0) return "WAIT";
        return actions_[best.first].text;
    }

  private:
    double invValue(const int* inv) const {
        double v = 0;
        for (int t = 0; t < 4; t++) v += inv[t] * p_.w_tier3 * (t + 1) / 4.0;
        return v;
    }

    uint64_t key(const Node& n) const {
        uint64_t h = 1469598103934665603ull;
        auto mix = [&h](uint64_t x) { h = (h ^ x) * 1099511628211ull; };
        for (int t = 0; t < 4; t++) mix(n.inv[t]);
        mix(n.castable);
        mix(n.known);
        mix(n.orders);
        return h;
    }

    void push(const Node& parent, Node child, bool root, const std::string& text, std::vector<Node>& out,
              std::unordered_set<uint64_t>& seen) {
        if (root) {
            child.first = int(actions_.size());
            actions_.push_back({text});
        } else {
            child.first = parent.first;
        }
        if (seen.insert(key(child)).second) out.push_back(child);
    }

    void expand(const Node& n, bool root, bool mayLearn, double discount, std::vector<Node>& out,
                std::unordered_set<uint64_t>& seen) {
        // BREW
        for (size_t k = 0; k < orders_.size() && k < 32; k++) {
            if (!(n.orders >> k & 1)) continue;
            const Order& o = orders_[k];
            bool ok = true;
            for (int t = 0; t < 4; t++) ok = ok && n.inv[t] >= o.cost[t];
            if (!ok) continue;
            Node c = n;
            for (int t = 0; t < 4; t++) c.inv[t] -= o.cost[t];
            c.orders &= ~(1u << k);
            c.value += discount * o.price;
            push(n, c, root, "BREW " + std::to_string(o.id), out, seen);
        }
        // CAST
        bool exhausted = false;
        for (size_t i = 0; i < spells_.size(); i++) {
            if (!(n.known >> i & 1)) continue;
            if (!(n.castable >> i & 1)) {
                exhausted = true;
                continue;
            }
            const Spell& s = spells_[i];
            int times = s.repeatable ? 5 : 1;
            Node c = n;
            for (int k = 1; k <= times; k++) {
                bool ok = true;
                for (int t = 0; t < 4; t++) {
                    c.inv[t] += s.d[t];
                    ok = ok && c.inv[t] >= 0;
                }
                if (!ok || total(c.inv) > 10) break;
                Node cc = c;
                cc.castable &= ~(uint64_t(1) << i);
                std::string text = "CAST " + std::to_string(s.id);
                if (s.repeatable) text += " " + std::to_string(k);
                push(n, cc, root, text, out, seen);
            }
        }
        // REST
        if (exhausted) {
            Node c = n;
            c.castable = n.known;
            push(n, c, root, "REST", out, seen);
        }
        // LEARN
        if (mayLearn) {
            for (size_t i = 0; i < spells_.size(); i++) {
                int k = learnSpell_[i];
                if (k < 0 || !(n.tome >> k & 1)) continue;
                const Learnable& l = tome_[k];
                // Tome indexes shift as spells are learnt; count the ones still before it.
                int index = 0;
                for (int j = 0; j < k; j++) index += n.tome >> j & 1;
                if (n.inv[0] < index) continue;
                Node c = n;
                c.inv[0] -= index;
                c.inv[0] += std::min(l.stock, 10 - total(c.inv));
                c.tome &= ~(1u << k);
                c.known |= uint64_t(1) << i;
                c.castable |= uint64_t(1) << i;
                push(n, c, root, "LEARN " + std::to_string(l.id), out, seen);
            }
        }
        // WAIT keeps the line alive when nothing else is possible.
        if (out.empty() && root) push(n, n, root, "WAIT", out, seen);
    }

    Params p_;
    std::vector<Spell> spells_;
    std::vector<int> learnSpell_;  // tome index of a search spell, -1 for an owned one
    std::vector<Order> orders_;
    std::vector<Learnable> tome_;
    std::vector<Action> actions_;
};

double numberArg(const char* name, const char* v) {
    char* end = nullptr;
    double x = std::strtod(v, &end);
    if (end == v || *end != '\0') {
        std::fprintf(stderr, "bot: %s %s: not a number\n", name, v);
        std::exit(2);
    }
    return x;
}

}  // namespace

int main(int argc, char** argv) {
    Params p;
    for (int i = 1; i + 1 < argc; i += 2) {
        std::string k = argv[i];
        double v = numberArg(argv[i], argv[i + 1]);
        if (k == "--depth") p.depth = int(v);
        else if (k == "--width") p.width = int(v);
        else if (k == "--decay") p.decay = v;
        else if (k == "--w-inv") p.w_inv = v;
        else if (k == "--w-tier3") p.w_tier3 = v;
        else if (k == "--learn-turns") p.learn_turns = int(v);
        else {
            std::fprintf(stderr, "bot: unknown flag %s\n", k.c_str());
            return 2;
        }
    }
    if ((argc - 1) % 2 != 0) {
        std::fprintf(stderr, "bot: flags come in pairs: --name value\n");
        return 2;
    }
    Bot bot(p);
    std::ios::sync_with_stdio(false);
    int count;
    for (int turn = 0; std::cin >> count; turn++) {
        std::vector<Spell> mine;
        std::vector<bool> ready;
        std::vector<Order> orders;
        std::vector<Learnable> tome;
        for (int i = 0; i < count; i++) {
            int id, d[4], price, a, b, castable, repeatable;
            std::string type;
            std::cin >> id >> type >> d[0] >> d[1] >> d[2] >> d[3] >> price >> a >> b >> castable >> repeatable;
            if (type == "BREW") {
                orders.push_back({id, {-d[0], -d[1], -d[2], -d[3]}, price});
            } else if (type == "CAST") {
                mine.push_back({id, {d[0], d[1], d[2], d[3]}, repeatable != 0});
                ready.push_back(castable != 0);
            } else if (type == "LEARN") {
                tome.push_back({id, {d[0], d[1], d[2], d[3]}, a, b, repeatable != 0});
            }
        }
        int inv[4], score, oinv[4], oscore;
        std::cin >> inv[0] >> inv[1] >> inv[2] >> inv[3] >> score;
        std::cin >> oinv[0] >> oinv[1] >> oinv[2] >> oinv[3] >> oscore;
        std::cout << bot.turn(mine, ready, orders, tome, inv, turn) << std::endl;
    }
    return 0;
}
