/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * Members: finding the ethdev ports named in devargs, checking that they
 * can form one virtual port, and owning them (rte_eth_dev_owner_set) so
 * that the application's port iteration skips them; and which member
 * serves, and where, for every other file of the driver.
 *
 * Every check runs before any member is owned, so a refusal leaves no
 * member owned and nothing to undo.
 *
 * The virtual port may be listed before its members: octopus.rst (Device
 * order and ownership) says what then happens (octopus_members_probe_later).
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <numa.h>

#include <rte_bus.h>
#include <rte_dev.h>
#include <rte_flow.h>
#include <rte_pci.h>
#include <bus_driver.h>

#include "octopus_internal.h"

/* Ethdev names of PCI ports are the full "DDDD:BB:DD.F" (with "_pN" for
 * the uplinks of mlx5's multiport e-switch); accept the short form too.
 */
static int
lookup_port(const char *name, uint16_t *port)
{
	char full[RTE_ETH_NAME_MAX_LEN];

	if (rte_eth_dev_get_port_by_name(name, port) == 0)
		return 0;
	if (octopus_member_name_full(name, full, sizeof(full)) == 0 &&
	    rte_eth_dev_get_port_by_name(full, port) == 0)
		return 0;
	return -ENODEV;
}

/*
 * Whether port @p pid is a VF or SF representor: a port of the NIC's
 * switch domain that stands for a function of another host or guest, no
 * PF of this one (mlx5's multiport e-switch puts every probed VF and SF
 * representor in its uplinks' domain, facts T5; its second uplink is a
 * representor too, of a PF, and is one of the PFs). A representor that
 * says not what it represents is taken for a VF's.
 */
static bool
vf_sf_representor(uint16_t pid)
{
	const struct rte_eth_dev_data *d = rte_eth_devices[pid].data;
	struct rte_eth_representor_info *ri;
	bool vf_sf = true;
	uint32_t i;
	int n;

	if ((d->dev_flags & RTE_ETH_DEV_REPRESENTOR) == 0)
		return false;
	n = rte_eth_representor_info_get(pid, NULL);
	if (n <= 0)
		return true;
	ri = calloc(1, sizeof(*ri) + (size_t)n * sizeof(ri->ranges[0]));
	if (ri == NULL)
		return true;
	ri->nb_ranges_alloc = (uint32_t)n;
	if (rte_eth_representor_info_get(pid, ri) >= 0)
		for (i = 0; i < ri->nb_ranges && i < ri->nb_ranges_alloc; i++)
			if (d->representor_id >= ri->ranges[i].id_base &&
			    d->representor_id <= ri->ranges[i].id_end) {
				vf_sf = ri->ranges[i].type != RTE_ETH_REPRESENTOR_PF;
				break;
			}
	free(ri);
	return vf_sf;
}

/* nic=: every port of the named PF's switch domain, in port order, VF and
 * SF representors aside.
 */
static int
expand_nic(struct octopus_priv *p, bool at_probe)
{
	struct octopus_args *a = &p->args;
	struct rte_eth_dev_info info;
	uint16_t nic_port, pid, i;
	uint16_t domain;
	int ret;

	if (p->nb_members > 0)
		return 0;
	if (lookup_port(a->nic, &nic_port) < 0) {
		if (at_probe)
			return 0; /* may be probed later: resolved at configure */
		return OCTO_ERR(-ENODEV, "nic=%s: no such ethdev", a->nic);
	}
	ret = rte_eth_dev_info_get(nic_port, &info);
	if (ret < 0)
		return ret;
	domain = info.switch_info.domain_id;
	if (domain == RTE_ETH_DEV_SWITCH_DOMAIN_ID_INVALID)
		return OCTO_ERR(-EINVAL, "nic=%s: the device reports no switch domain; name its PFs with member=",
			a->nic);
	OCTO_FOREACH_PORT(pid) {
		if (pid == p->port_id || rte_eth_dev_info_get(pid, &info) < 0)
			continue;
		if (info.switch_info.domain_id != domain || vf_sf_representor(pid))
			continue;
		if (p->nb_members >= OCTOPUS_MAX_MEMBERS) {
			OCTO_LOG(ERR, "nic=%s: more than %u ports in its switch domain",
				a->nic, OCTOPUS_MAX_MEMBERS);
			p->nb_members = 0;
			return -E2BIG;
		}
		struct octopus_member *m = &p->members[p->nb_members++];

		memset(m, 0, sizeof(*m));
		rte_eth_dev_get_name_by_port(pid, m->name);
		m->socket_forced = -1;
		/* socket_of pairs were stashed in names[] by the parser */
		for (i = 0; i < a->nb_names; i++)
			if (strcmp(a->names[i], m->name) == 0)
				m->socket_forced = a->socket_of[i];
		m->state = OCTO_MEMBER_PARSED;
	}
	return 0;
}

static void
members_from_names(struct octopus_priv *p)
{
	struct octopus_args *a = &p->args;
	uint16_t i;

	if (p->nb_members > 0 || a->nic[0] != '\0')
		return;
	for (i = 0; i < a->nb_names; i++) {
		struct octopus_member *m = &p->members[i];

		memset(m, 0, sizeof(*m));
		strlcpy(m->name, a->names[i], sizeof(m->name));
		m->socket_forced = a->socket_of[i];
		m->state = OCTO_MEMBER_PARSED;
	}
	p->nb_members = a->nb_names;
}

/*
 * Whether @p port_id is a port of this driver (a primary's or a
 * secondary's), from its probe on: the vdev bus gives the driver the
 * devices whose names start with its own, and a released port id reused
 * by another device comes with that device's name.
 */
bool
octopus_is_octopus(uint16_t port_id)
{
	return rte_eth_dev_is_valid_port(port_id) &&
		strncmp(rte_eth_devices[port_id].data->name, OCTOPUS_DRIVER_NAME,
			strlen(OCTOPUS_DRIVER_NAME)) == 0;
}

/*
 * The socket to allocate on for memory meant to live on @p socket: itself
 * when EAL knows it, else any (a device that reports a node EAL has no
 * lcore on). Also tells whether EAL knows a node (socket_of= checks).
 */
int
octopus_alloc_socket(int socket)
{
	unsigned int i;

	for (i = 0; i < rte_socket_count(); i++)
		if (rte_socket_id_by_idx(i) == socket)
			return socket;
	return SOCKET_ID_ANY;
}

bool
octopus_member_serving(const struct octopus_priv *p, unsigned int m)
{
	return m < p->nb_members && p->members[m].state >= OCTO_MEMBER_OWNED &&
		rte_atomic_load_explicit(&p->members[m].loss,
			rte_memory_order_acquire) == OCTO_LOSS_NONE;
}

/* NUMA distance from @p a to @p b (SLIT; 10 apart per node when unknown). */
static int
distance(int a, int b)
{
	int d = numa_available() >= 0 ? numa_distance(a, b) : 0;

	if (d > 0)
		return d;
	return a == b ? 10 : 10 + 10 * abs(a - b);
}

/*
 * The serving member on @p socket, else the serving one nearest to it;
 * any serving member when @p socket is unknown (< 0).
 * @return member index, -1 when none serves.
 */
int
octopus_member_nearest(const struct octopus_priv *p, int socket)
{
	int best = -1, best_d = INT32_MAX, d;
	uint16_t i;

	for (i = 0; i < p->nb_members; i++) {
		if (!octopus_member_serving(p, i))
			continue;
		if (socket < 0)
			return i;
		d = p->members[i].socket == socket ? 0 :
			distance(socket, p->members[i].socket);
		if (d < best_d) {
			best = i;
			best_d = d;
		}
	}
	return best;
}

int
octopus_member_by_socket(const struct octopus_priv *p, int socket)
{
	uint16_t i;

	for (i = 0; i < p->nb_members; i++)
		if (octopus_member_serving(p, i) && p->members[i].socket == socket)
			return i;
	return -1;
}

/*
 * The member that is the members' transfer proxy (the port
 * rte_flow_pick_transfer_proxy names for them), -1 when none is: members
 * without an e-switch, or a proxy outside the port. An e-switch may want
 * its proxy started before its other ports and stopped after them (mlx5
 * with hardware steering refuses with EAGAIN and EBUSY).
 */
int
octopus_member_proxy(const struct octopus_priv *p)
{
	const struct octopus_member *m;
	uint16_t i, j, px;

	OCTO_FOREACH_MEMBER_STATE(p, i, m, OCTO_MEMBER_OWNED) {
		px = RTE_MAX_ETHPORTS;
		if (rte_flow_pick_transfer_proxy(m->port_id, &px, NULL) != 0)
			continue;
		for (j = 0; j < p->nb_members; j++)
			if (p->members[j].state >= OCTO_MEMBER_OWNED &&
			    p->members[j].port_id == px)
				return j;
	}
	return -1;
}

/*
 * The members in the order they start: the transfer proxy first, then
 * the others in devargs order; they stop in the reverse order.
 * @return how many indexes @p order holds (every member, whatever its state).
 */
unsigned int
octopus_members_order(const struct octopus_priv *p, uint16_t *order)
{
	int px = octopus_member_proxy(p);
	unsigned int n = 0;
	uint16_t i;

	if (px >= 0)
		order[n++] = (uint16_t)px;
	for (i = 0; i < p->nb_members; i++)
		if (i != px)
			order[n++] = i;
	return n;
}

/*
 * Whether every member keeps rte_flow rules across its stop
 * (RTE_ETH_DEV_CAPA_FLOW_RULE_KEEP). Where one does not, ethdev's guide
 * says it neither keeps rules nor takes them before its first start: the
 * port removes what it made on the members before they stop and makes it
 * again once they run (mlx5 says it not and flushes at stop, facts F7).
 */
bool
octopus_members_keep_rules(const struct octopus_priv *p)
{
	const struct octopus_member *m;
	struct rte_eth_dev_info info;
	uint16_t i;

	OCTO_FOREACH_MEMBER_STATE(p, i, m, OCTO_MEMBER_OWNED)
		if (rte_eth_dev_info_get(m->port_id, &info) != 0 ||
		    (info.dev_capa & RTE_ETH_DEV_CAPA_FLOW_RULE_KEEP) == 0)
			return false;
	return true;
}

/*
 * What locality the port gives on its members, a word (telemetry's
 * "locality") and what it means (the log, telemetry's "locality_detail":
 * shorter than a telemetry string's 128 bytes).
 */
const char *
octopus_locality_name(const struct octopus_priv *p)
{
	if (p->one_function)
		return "one_function";
	if (p->steer != NULL)
		return "steered";
	return p->started ? "tx_local" : "stopped";
}

const char *
octopus_locality_says(const struct octopus_priv *p)
{
	if (p->one_function)
		return "every queue's DMA through one function (one device, one socket); "
			"Rx polled on every member";
	if (p->steer != NULL)
		return "each queue's Rx and Tx through the PF on its poller's socket";
	return "Tx through the PF on the poller's socket (local); "
		"Rx polled where the NIC delivers it, local only there";
}

/*
 * Whether a member whose port was released has an ethdev of its name again
 * (its device probed again, as after a device-fatal error and hotplug).
 */
bool
octopus_members_reprobed(const struct octopus_priv *p)
{
	uint16_t i, port;

	for (i = 0; i < p->nb_members; i++)
		if (p->members[i].state < OCTO_MEMBER_OWNED &&
		    p->members[i].loss == OCTO_LOSS_RELEASED &&
		    lookup_port(p->members[i].name, &port) == 0)
			return true;
	return false;
}

/* Whether a member named in devargs (or the nic=) is not resolved yet. */
bool
octopus_members_missing(const struct octopus_priv *p)
{
	uint16_t i;

	if (p->nb_members == 0)
		return true;
	for (i = 0; i < p->nb_members; i++)
		if (p->members[i].state < OCTO_MEMBER_OWNED &&
		    p->members[i].loss != OCTO_LOSS_RELEASED)
			return true;
	return false;
}

/* Devices the vdev bus has not probed yet, octopus ports aside. */
static int
unprobed_vdev(const struct rte_device *d, const void *data)
{
	RTE_SET_USED(data);
	if (rte_dev_is_probed(d))
		return 1;
	return strncmp(rte_dev_name(d), OCTOPUS_DRIVER_NAME,
		strlen(OCTOPUS_DRIVER_NAME)) == 0;
}

/*
 * Probe the virtual devices listed after this port now, so that members
 * named in its devargs exist before the application iterates ports: EAL
 * probes vdevs in the order of the command line, and an application
 * (testpmd, flow-perf) lists its ports as soon as EAL is up, before it
 * asks any of them anything. The bus skips what was probed already when
 * its turn comes. Other octopus ports are left to the bus (they probe
 * their own members).
 */
void
octopus_members_probe_later(void)
{
	struct rte_bus *vbus = rte_bus_find_by_name("vdev");
	struct rte_device *d = NULL;

	if (vbus == NULL || vbus->find_device == NULL || vbus->plug == NULL)
		return;
	while ((d = vbus->find_device(d, unprobed_vdev, NULL)) != NULL)
		if (vbus->plug(d) != 0)
			OCTO_LOG(NOTICE, "%s: probing it early for a member failed; the bus retries in its turn",
				rte_dev_name(d));
}

/* What the checks learnt of a member, before any member is owned. */
struct member_found {
	bool found;		/**< its ethdev exists and passed the checks */
	uint16_t port;
	int socket;
	int dev_socket;		/**< the node the device reports (socket_of= aside) */
	const struct rte_device *dev;	/**< its rte_device */
	uint16_t domain;	/**< switch domain */
};

/*
 * The checks of member @p i alone: its ethdev exists (at probe, a missing
 * one is left for later), is no octopus port, is not member twice, is
 * owned by nobody, and has a NUMA node (its own or socket_of=).
 */
static int
member_check(struct octopus_priv *p, uint16_t i, bool at_probe,
		struct member_found *f)
{
	struct octopus_member *m = &p->members[i];
	struct rte_eth_dev_owner owner;
	struct rte_eth_dev_info info;
	uint16_t j;
	int ret;

	if (m->state >= OCTO_MEMBER_OWNED) {
		f[i].port = m->port_id;
		f[i].socket = m->socket;
		f[i].dev = rte_eth_devices[m->port_id].device;
		f[i].dev_socket = rte_eth_dev_socket_id(m->port_id);
		ret = rte_eth_dev_info_get(m->port_id, &info);
		if (ret < 0)
			return ret;
		f[i].domain = info.switch_info.domain_id;
		f[i].found = true;
		return 0;
	}
	if (lookup_port(m->name, &f[i].port) < 0) {
		if (at_probe)
			return 0;
		if (m->loss == OCTO_LOSS_RELEASED) {
			/* it was here and left: the others carry on */
			OCTO_LOG(WARNING, "member %s: gone (its port was released); the port runs without it until it is probed again",
				m->name);
			return 0;
		}
		return OCTO_ERR(-ENODEV, "member %s: no such ethdev (not probed?)", m->name);
	}
	if (f[i].port == p->port_id || octopus_is_octopus(f[i].port))
		return OCTO_ERR(-EINVAL, "member %s: is an octopus port", m->name);
	for (j = 0; j < i; j++)
		if (f[j].found && f[j].port == f[i].port)
			return OCTO_ERR(-EINVAL, "member %s: same port as %s", m->name,
				p->members[j].name);
	ret = rte_eth_dev_owner_get(f[i].port, &owner);
	if (ret < 0)
		return ret;
	if (owner.id != RTE_ETH_DEV_NO_OWNER)
		return OCTO_ERR(-EBUSY, "member %s: already owned by \"%s\"", m->name, owner.name);
	ret = rte_eth_dev_info_get(f[i].port, &info);
	if (ret < 0)
		return OCTO_ERR(ret, "member %s: cannot get device info (%d)", m->name, ret);
	f[i].domain = info.switch_info.domain_id;
	if (m->socket_forced >= 0 &&
	    octopus_alloc_socket(m->socket_forced) == SOCKET_ID_ANY)
		return OCTO_ERR(-EINVAL, "socket_of=%s:%d: this machine has no NUMA node %d (EAL sees %u socket(s))",
			m->name, m->socket_forced, m->socket_forced, rte_socket_count());
	f[i].dev = rte_eth_devices[f[i].port].device;
	f[i].dev_socket = rte_eth_dev_socket_id(f[i].port);
	f[i].socket = m->socket_forced >= 0 ? m->socket_forced : f[i].dev_socket;
	if (f[i].socket < 0)
		return OCTO_ERR(-EINVAL, "member %s: device reports no NUMA node; give socket_of=%s:<node>",
			m->name, m->name);
	f[i].found = true;
	return 0;
}

/*
 * Members that are ports of one rte_device reporting one NUMA node (mlx5's
 * multiport e-switch: every uplink is spawned on the owner's PCI function,
 * its queues made on the owner's context, facts T1, T3): their DMA goes
 * through that one function, whatever socket_of= says. Such members are
 * taken for what they are: each on the device's node (socket_of= ignored,
 * said so), not refused as two members on one socket.
 * @return whether some members are such.
 */
static bool
members_one_function(const struct octopus_priv *p, struct member_found *f)
{
	bool any = false;
	uint16_t i, j;

	for (i = 0; i < p->nb_members; i++)
		for (j = 0; j < i; j++) {
			if (!f[i].found || !f[j].found || f[i].dev == NULL ||
			    f[i].dev != f[j].dev || f[i].dev_socket != f[j].dev_socket ||
			    f[i].dev_socket < 0)
				continue;
			any = true;
			if (f[i].socket != f[i].dev_socket || f[j].socket != f[j].dev_socket)
				OCTO_LOG(WARNING, "members %s and %s are ports of one device (%s): their queues DMA through its function on socket %d; socket_of= is ignored for them",
					p->members[j].name, p->members[i].name,
					rte_dev_name(f[i].dev), f[i].dev_socket);
			f[i].socket = f[i].dev_socket;
			f[j].socket = f[j].dev_socket;
		}
	return any;
}

/*
 * The checks between members found: one per socket (the home of a queue
 * is "the member on the poller's socket") but ports of one function, all
 * on one NIC unless force=1.
 */
static int
members_cross_check(const struct octopus_priv *p, const struct member_found *f)
{
	uint16_t i, j;

	for (i = 0; i < p->nb_members; i++)
		for (j = 0; j < i; j++)
			if (f[i].found && f[j].found && f[i].socket == f[j].socket &&
			    !(f[i].dev != NULL && f[i].dev == f[j].dev &&
			      f[i].dev_socket == f[j].dev_socket))
				return OCTO_ERR(-EINVAL, "members %s and %s are both on socket %d (one PF per socket; use socket_of= if a device misreports)",
					p->members[j].name, p->members[i].name, f[i].socket);
	for (i = 0; i < p->nb_members; i++)
		for (j = 0; j < i; j++)
			if (f[i].found && f[j].found && f[i].domain != f[j].domain &&
			    !p->args.force_domain)
				return OCTO_ERR(-EINVAL, "members %s and %s are on different NICs (switch domains %u, %u); force=1 to allow",
					p->members[j].name, p->members[i].name,
					f[j].domain, f[i].domain);
	return 0;
}

/* Own the members found and not owned yet; on failure, none of them. */
static int
members_own(struct octopus_priv *p, const struct member_found *f)
{
	bool newly[OCTOPUS_MAX_MEMBERS] = { false };
	struct rte_eth_dev_owner owner;
	struct octopus_member *m;
	uint16_t i, j;
	int ret;

	memset(&owner, 0, sizeof(owner));
	owner.id = p->owner_id;
	snprintf(owner.name, sizeof(owner.name), "%s(port %u)",
		OCTOPUS_DRIVER_NAME, p->port_id);
	OCTO_FOREACH_MEMBER(p, i, m) {
		if (!f[i].found || m->state >= OCTO_MEMBER_OWNED)
			continue;
		ret = rte_eth_dev_owner_set(f[i].port, &owner);
		if (ret < 0) {
			OCTO_LOG(ERR, "member %s: cannot take ownership (%d)", m->name, ret);
			for (j = 0; j < i; j++)
				if (newly[j]) {
					rte_eth_dev_owner_unset(f[j].port, p->owner_id);
					p->members[j].state = OCTO_MEMBER_PARSED;
				}
			return ret;
		}
		newly[i] = true;
		m->port_id = f[i].port;
		m->socket = f[i].socket;
		m->state = OCTO_MEMBER_OWNED;
		rte_atomic_store_explicit(&m->loss, OCTO_LOSS_NONE, rte_memory_order_release);
		OCTO_LOG(INFO, "port %u: member %u is %s (port %u, socket %d)",
			p->port_id, i, m->name, m->port_id, m->socket);
	}
	return 0;
}

/*
 * Resolve the members that exist now. At probe, a missing member is not an
 * error (it may be probed after the virtual port); at configure it is.
 * @return 0, or a negative errno with a log line naming the problem and
 * no member newly owned.
 */
int
octopus_members_init(struct octopus_priv *p, bool at_probe)
{
	struct member_found f[OCTOPUS_MAX_MEMBERS] = { { 0 } };
	bool one_function;
	uint16_t i;
	int ret;

	ret = p->args.nic[0] != '\0' ? expand_nic(p, at_probe) : 0;
	if (ret < 0)
		return ret;
	members_from_names(p);
	if (p->nb_members == 0) {
		if (at_probe)
			return 0;
		return OCTO_ERR(-ENODEV, "no member found");
	}
	for (i = 0; i < p->nb_members; i++) {
		ret = member_check(p, i, at_probe, f);
		if (ret < 0)
			return ret;
	}
	if (!at_probe) {
		for (i = 0; i < p->nb_members && !f[i].found; i++)
			;
		if (i == p->nb_members)
			return OCTO_ERR(-ENODEV, "no member left: every one is gone");
	}
	one_function = members_one_function(p, f);
	ret = members_cross_check(p, f);
	if (ret < 0)
		return ret;
	ret = members_own(p, f);
	if (ret == 0)
		p->one_function = one_function;
	return ret;
}

uint16_t
octopus_burst_none(void *queue, struct rte_mbuf **pkts, uint16_t n)
{
	RTE_SET_USED(queue);
	RTE_SET_USED(pkts);
	RTE_SET_USED(n);
	return 0;
}
