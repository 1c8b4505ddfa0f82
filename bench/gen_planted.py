#!/usr/bin/env python3
"""Review dumps with planted opinions at known shares (issue 8: "support is right").

Writes one JSONL dump per language (fields product, id, rating, text). Every product has
--reviews reviews. Each planted opinion is said, in one of its paraphrases (8 or more different
wordings each), by exactly round(share * reviews) reviews chosen at random; every review also gets
1-3 filler sentences drawn from a large template space about unrelated things. The truth is
written next to each dump as <dump>.truth.json: per product, per opinion, its key, polarity,
planted support and share.

Ratings (1-5) follow the review's opinions loosely and are sometimes contrary on purpose: a
review that carries a complaint gets 4 stars in about a quarter of the cases, so a point's
polarity cannot come from the stars alone. --no-ratings leaves them out.

Usage: gen_planted.py OUT_DIR [--lang en|zh|both] [--products 2] [--reviews 200] [--seed 1]
                      [--no-ratings] [--heldout | --blind]
Deterministic for a seed. Written for revsum; no third-party text.
"""
import argparse
import json
import os
import random

SHARES = [0.40, 0.20, 0.05]

EN_OPINIONS = [
    ("battery", "complaint", [
        "The battery dies after only a few hours.",
        "Battery life is terrible, it drains in half a day.",
        "It does not hold a charge for long at all.",
        "The battery runs out way too quickly.",
        "I have to recharge it several times a day because the battery is so weak.",
        "Battery barely lasts through the morning.",
        "The charge is gone by lunchtime every single day.",
        "Poor battery, it goes flat almost immediately.",
        "The battery drains ridiculously fast even when idle.",
        "Sadly the battery life is awful.",
    ]),
    ("screen", "praise", [
        "The screen is bright and beautiful.",
        "The display is gorgeous and very sharp.",
        "I love how crisp the screen looks.",
        "Colors on the display are vivid and stunning.",
        "The screen quality is excellent.",
        "Such a clear and bright display.",
        "The display looks amazing, even in sunlight.",
        "Great screen with sharp, vibrant colors.",
        "The picture on this screen is wonderful.",
    ]),
    ("service", "complaint", [
        "Customer service was rude and unhelpful.",
        "The support staff were impolite and did not help me.",
        "When I called support they were rude to me.",
        "Terrible customer service, nobody would help.",
        "The seller's support team was dismissive and unhelpful.",
        "Support never answered my emails and was rude on the phone.",
        "Awful customer support experience.",
        "The service agent was rude and hung up on me.",
    ]),
]

# Held-out wordings (--heldout): the same opinions said in words that appear in none of the
# paraphrases above, so that thresholds and word lists tuned on those cannot simply have learned
# them. Report both.
EN_HELDOUT = {
    "battery": [
        "After a couple of hours the power is already down to ten percent.",
        "Needs to be plugged in constantly, the cell just cannot keep up.",
        "Power drains so quickly that I carry a charger everywhere.",
        "By the afternoon it has shut itself off for lack of juice.",
        "The battery capacity is disappointing and it empties in no time.",
        "Runtime on a full charge is pathetic.",
        "I'm constantly hunting for an outlet because the battery gives out.",
        "It loses power far faster than advertised.",
    ],
    "screen": [
        "Text and photos look razor sharp on this panel.",
        "The display is a joy to look at, rich and luminous.",
        "Watching videos on this screen is a treat, the colours pop.",
        "Really impressed by the brightness and clarity of the display.",
        "The panel is lovely, with deep blacks and lively colours.",
        "Images on the screen are crisp and full of detail.",
        "Beautiful, vibrant display that is easy on the eyes.",
        "The screen is fantastic to look at.",
    ],
    "service": [
        "The help desk treated me with contempt and solved nothing.",
        "Their support agent was condescending and useless.",
        "I contacted customer care three times and got attitude every time.",
        "The representative on the phone was short with me and refused to help.",
        "Dealing with their support staff was a nightmare.",
        "Customer care ignored my complaint and was discourteous.",
    ],
}

EN_FILLER_SUBJECTS = ["my sister", "my dad", "a coworker", "my neighbor", "my son", "my aunt",
                      "a friend from school", "my grandmother", "my roommate", "my boss"]
EN_FILLER_TEMPLATES = [
    "I bought this as a gift for {s} in {m}.",
    "It arrived on a {d} in a plain brown box.",
    "{S} asked me where I got it.",
    "I mostly use it on the train to {c}.",
    "We took it along on our trip to {c} in {m}.",
    "I ordered it after {s} recommended the brand.",
    "The package was left at the door on {d}.",
    "I keep it on the shelf next to my {o}.",
    "This replaced an old {o} I had for years.",
    "I read a few articles before choosing this model in {m}.",
]
EN_SLOTS = {
    "m": ["January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December"],
    "d": ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"],
    "c": ["Boston", "Denver", "Chicago", "Seattle", "Austin", "Portland", "Atlanta", "Phoenix"],
    "o": ["lamp", "radio", "bookcase", "plant", "clock", "camera", "printer", "speaker"],
}

ZH_OPINIONS = [
    ("battery", "complaint", [
        "电池太不耐用了，半天就没电。",
        "电池续航很差，一天要充好几次。",
        "待机时间很短，电量掉得飞快。",
        "电池不行，用一会儿就没电了。",
        "续航太差了，早上充满中午就没电。",
        "电量掉得特别快，电池很差。",
        "电池很不耐用，充电很频繁。",
        "这个电池太差了，根本撑不过一天。",
        "耗电太快，续航让人失望。",
    ]),
    ("screen", "praise", [
        "屏幕很清晰，颜色也很漂亮。",
        "显示效果非常好，画面很清晰。",
        "屏幕色彩鲜艳，看着很舒服。",
        "屏幕非常漂亮，清晰度很高。",
        "画面清晰细腻，屏幕很满意。",
        "屏幕显示很棒，颜色很正。",
        "这块屏幕真不错，很清晰。",
        "屏幕亮度高，显示很清晰漂亮。",
    ]),
    ("service", "complaint", [
        "客服态度很差，问什么都不理。",
        "客服服务太差了，一点都不耐心。",
        "联系客服没人回复，服务很差。",
        "客服态度恶劣，让人很生气。",
        "售后客服很不负责，态度差。",
        "客服回答敷衍，服务态度太差。",
        "找客服处理问题，态度非常差。",
        "客服的服务让人失望，不理人。",
    ]),
]

ZH_HELDOUT = {
    "battery": [
        "充满电用不了几个小时就关机了。",
        "一天得充三四回电，太麻烦了。",
        "电力撑不住，出门必须带充电宝。",
        "电池容量太小，很快就用完了。",
        "没用多久电就耗光了，很失望。",
        "电池掉电严重，待机也掉得快。",
        "续航能力很弱，玩一会游戏就没电。",
        "充一次电根本不够用一天。",
    ],
    "screen": [
        "屏幕画质细腻，看视频很享受。",
        "显示屏色彩饱满，非常好看。",
        "屏幕亮丽通透，文字很锐利。",
        "这个屏幕看起来特别舒服，色彩很好。",
        "屏幕的分辨率高，图片很细腻。",
        "显示屏效果一流，亮度也够。",
        "屏幕色彩真实，画质很好。",
        "看电影的时候屏幕效果很惊艳。",
    ],
    "service": [
        "客服一直推脱责任，根本不解决问题。",
        "打了几次客服电话，态度冷淡。",
        "客服说话很冲，一点礼貌都没有。",
        "售后人员爱答不理，非常不专业。",
        "问客服问题半天不回，回了也很敷衍。",
        "客服的态度让人非常不爽。",
    ],
}

# A third Chinese set (--blind): written for revsum by a helper who saw the wordings above, to
# avoid them, but not the aspect terms of models/polarity/zh-aspects.txt (which another helper wrote
# without seeing any of these wordings), so that neither was fitted to the other.
ZH_BLIND = {
    "battery": [
        "这电池真拉胯，刷会儿视频就见底了。",
        "电量哗哗地往下掉，根本不经用。",
        "早上出门满电，下午电量就报警了。",
        "续航真心拉垮，撑不到下班。",
        "电池是硬伤，充电器得随身带着。",
        "看两集剧电就没了，太坑了。",
        "电池不抗用，一天到晚找插座。",
        "这续航简直了，充电比用的时间还长。",
        "唯一不满意就是电池，太不经用。",
        "待机一晚上掉了三十多的电，太离谱。",
    ],
    "screen": [
        "屏幕太好看了，一眼就爱上。",
        "这屏幕绝了，看剧超爽。",
        "屏幕通透得很，黑色也很纯。",
        "屏幕细节满满，照片看着跟真的一样。",
        "显示效果没得挑，色彩特别讨喜。",
        "大屏看着真过瘾，画面超清楚。",
        "屏幕是最大亮点，清楚又鲜亮。",
        "大太阳底下屏幕也看得很清楚。",
        "屏幕素质很高，看着一点不累眼。",
        "这块屏真香，追剧打游戏都很爽。",
    ],
    "service": [
        "客服就会复制粘贴，问题一个没解决。",
        "售后一直踢皮球，来回折腾好几天。",
        "客服语气特别不耐烦，体验极差。",
        "找售后维修，对方一副爱修不修的样子。",
        "客服全是机器人回复，找不到真人。",
        "问个问题被客服怼回来，太气人了。",
        "售后说好给我回电，结果一直没等到。",
        "客服只会说抱歉，啥事也不管。",
    ],
}

ZH_FILLER_TEMPLATES = [
    "这是{m}买给{s}的礼物。",
    "{d}收到的，包装是普通纸箱。",
    "{s}问我在哪里买的。",
    "平时主要在去{c}的路上用。",
    "{m}去{c}旅游的时候带着。",
    "是{s}推荐这个牌子我才买的。",
    "快递{d}放在门口了。",
    "放在{o}旁边的架子上。",
    "用它换掉了家里用了很多年的旧{o}。",
    "{m}的时候看了一些介绍才选的这款。",
]
ZH_SLOTS = {
    "m": ["一月", "二月", "三月", "四月", "五月", "六月", "七月", "八月", "九月", "十月",
          "十一月", "十二月"],
    "d": ["周一", "周二", "周三", "周四", "周五", "周六", "周日"],
    "c": ["北京", "上海", "广州", "深圳", "成都", "杭州", "武汉", "西安"],
    "o": ["台灯", "收音机", "书柜", "花盆", "闹钟", "相机", "打印机", "音箱"],
    "s": ["我妹妹", "我爸爸", "同事", "邻居", "我儿子", "我阿姨", "老同学", "奶奶", "室友", "老板"],
}


def filler(rng, lang):
    if lang == "en":
        t = rng.choice(EN_FILLER_TEMPLATES)
        s = rng.choice(EN_FILLER_SUBJECTS)
        vals = {k: rng.choice(v) for k, v in EN_SLOTS.items()}
        return t.format(s=s, S=s[0].upper() + s[1:], **vals)
    t = rng.choice(ZH_FILLER_TEMPLATES)
    return t.format(**{k: rng.choice(v) for k, v in ZH_SLOTS.items()})


def rating_for(rng, polarities):
    if "complaint" in polarities:
        return 4 if rng.random() < 0.25 else rng.choice([1, 2, 2, 3])
    if "praise" in polarities:
        return rng.choice([4, 5, 5])
    return rng.choice([3, 4, 5])


def write_dump(out_dir, lang, products, reviews, seed, ratings, heldout=False, blind=False):
    rng = random.Random(f"{seed}-{lang}")
    opinions = EN_OPINIONS if lang == "en" else ZH_OPINIONS
    if heldout or blind:
        held = ZH_BLIND if blind else EN_HELDOUT if lang == "en" else ZH_HELDOUT
        opinions = [(key, polarity, held[key]) for key, polarity, _ in opinions]
    path = os.path.join(out_dir, f"planted_{lang}.jsonl")
    truth = {}
    with open(path, "w", encoding="utf-8") as out:
        for p in range(products):
            product = f"{lang}-product-{p + 1}"
            said = [[] for _ in range(reviews)]
            truth[product] = {"reviews": reviews, "opinions": []}
            for (key, polarity, phrasings), share in zip(opinions, SHARES):
                k = round(share * reviews)
                for r in rng.sample(range(reviews), k):
                    said[r].append((key, polarity, rng.choice(phrasings)))
                truth[product]["opinions"].append(
                    {"key": key, "polarity": polarity, "support": k, "share": k / reviews,
                     "paraphrases": phrasings})
            for r in range(reviews):
                parts = [filler(rng, lang) for _ in range(rng.randint(1, 3))]
                for _, _, sentence in said[r]:
                    parts.insert(rng.randint(0, len(parts)), sentence)
                sep = " " if lang == "en" else ""
                record = {"product": product, "id": f"{product}-r{r + 1}",
                          "text": sep.join(parts)}
                if ratings:
                    record["rating"] = rating_for(rng, [pol for _, pol, _ in said[r]])
                out.write(json.dumps(record, ensure_ascii=False) + "\n")
    with open(path + ".truth.json", "w", encoding="utf-8") as out:
        json.dump(truth, out, ensure_ascii=False, indent=1)
    return path


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out_dir")
    ap.add_argument("--lang", choices=["en", "zh", "both"], default="both")
    ap.add_argument("--products", type=int, default=2)
    ap.add_argument("--reviews", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-ratings", action="store_true")
    ap.add_argument("--heldout", action="store_true",
                    help="say the opinions in the held-out wordings (EN_HELDOUT, ZH_HELDOUT)")
    ap.add_argument("--blind", action="store_true",
                    help="Chinese only: say the opinions in the blind wordings (ZH_BLIND)")
    a = ap.parse_args()
    if a.blind and (a.heldout or a.lang != "zh"):
        ap.error("--blind is a Chinese set (--lang zh) and excludes --heldout")
    if a.products < 1 or a.reviews < 20:
        ap.error("--products must be >= 1 and --reviews >= 20")
    os.makedirs(a.out_dir, exist_ok=True)
    for lang in (["en", "zh"] if a.lang == "both" else [a.lang]):
        print(write_dump(a.out_dir, lang, a.products, a.reviews, a.seed, not a.no_ratings,
                         a.heldout, a.blind))


if __name__ == "__main__":
    main()
