#!/bin/bash
# t2140-replay-ethtool.sh: SIOCETHTOOL writes behind the struct ifreq's
# ifr_data, as much as its command there says (rec refused the ioctl;
# a command it does not know still is). GRXRINGS goes to every interface:
# one whose driver answers it (virtio_net) shows struct ethtool_rxnfc
# recorded, which rec refused until 2026-12-01.
. "$(dirname "$0")/test-lib.sh"
require_tprog ethtool

test_expect_success 'native output differs (token)' '
	differs_natively "$T/ethtool"
'
test_expect_success 'ethtool commands on lo record and replay' '
	rec_replay_cmp "$T/ethtool" &&
	grep -q "^link: ok " rec.out &&
	grep -q "^names: ok [1-9][0-9]* [a-z]" rec.out &&
	grep -q "^features: ok [1-9]" rec.out &&
	grep -q "^rx rings lo: " rec.out
'
test_done
