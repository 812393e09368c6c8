/* ethtool.c: SIOCETHTOOL on the loopback interface (and GRXRINGS on every
 * interface), whose output lies
 * behind the struct ifreq's ifr_data, sized by the command there (rec
 * refused it as an ioctl whose outputs it did not know). Prints what
 * each command answered, and a token. */
#include <errno.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/random.h>
#include <sys/socket.h>

static int fd;

static const char *et_on(const char *ifname, void *data)
{
	struct ifreq ir;
	memset(&ir, 0, sizeof ir);
	snprintf(ir.ifr_name, sizeof ir.ifr_name, "%s", ifname);
	ir.ifr_data = data;
	return ioctl(fd, SIOCETHTOOL, &ir) == 0 ? "ok" : strerror(errno);
}

static const char *et(void *data)
{
	return et_on("lo", data);
}

int main(void)
{
	unsigned tok;
	getrandom(&tok, sizeof tok, 0);
	printf("token %08x\n", tok);
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	struct ethtool_value v = { ETHTOOL_GLINK, 99 };
	const char *r = et(&v);
	printf("link: %s %u\n", r, v.data);
	v = (struct ethtool_value){ ETHTOOL_GSG, 99 };
	r = et(&v);
	printf("scatter-gather: %s %u\n", r, v.data);
	struct ethtool_ts_info ti = { .cmd = ETHTOOL_GET_TS_INFO };
	r = et(&ti);
	printf("timestamping: %s %#x %d\n", r, ti.so_timestamping, ti.phc_index);
	struct {
		struct ethtool_sset_info h;
		uint32_t len[1];
	} ss = { { .cmd = ETHTOOL_GSSET_INFO, .sset_mask = 1ull << ETH_SS_FEATURES }, { 0 } };
	r = et(&ss);
	printf("feature names: %s %u\n", r, ss.len[0]);
	uint32_t n = ss.len[0] < 1024 ? ss.len[0] : 1024;
	struct ethtool_gstrings *gs = calloc(1, sizeof *gs + ETH_GSTRING_LEN * n);
	gs->cmd = ETHTOOL_GSTRINGS;
	gs->string_set = ETH_SS_FEATURES;
	gs->len = n;
	r = et(gs);
	printf("names: %s %u", r, gs->len);
	for (uint32_t i = 0; i < gs->len && i < 4; i++)
		printf(" %.32s", (char *)gs->data + ETH_GSTRING_LEN * i);
	printf("\n");
	struct {
		struct ethtool_gfeatures h;
		struct ethtool_get_features_block b[8];
	} gf = { { .cmd = ETHTOOL_GFEATURES, .size = 8 }, { { 0 } } };
	r = et(&gf);
	printf("features: %s %u %#x %#x\n", r, gf.h.size, gf.b[0].active, gf.b[0].available);
	/* Receive rings: lo has none to tell, a network card's driver mostly
	 * does (virtio_net: its queues). Every interface is asked. */
	struct if_nameindex *ni = if_nameindex();
	for (struct if_nameindex *i = ni; i && i->if_index; i++) {
		struct ethtool_rxnfc rx = { .cmd = ETHTOOL_GRXRINGS, .data = 99 };
		r = et_on(i->if_name, &rx);
		printf("rx rings %s: %s %llu\n", i->if_name, r, (unsigned long long)rx.data);
	}
	if (ni)
		if_freenameindex(ni);
	struct ethtool_drvinfo di = { .cmd = ETHTOOL_GDRVINFO };
	r = et(&di);
	printf("driver: %s\n", r);
	return 0;
}
