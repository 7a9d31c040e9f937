/* Trees from hwloc XML exports: machines one does not have, and fixed
 * topologies for tests. */
#include <errno.h>
#include <hwloc.h>
#include <stdlib.h>
#include <string.h>

#include "machine_impl.h"

int sgl__hwloc_load_xml(const char *path, hwloc_topology_t *ret_topo)
{
    /* Read here, not by hwloc: it reports a missing file and a malformed
     * one alike, and would block on a FIFO or read a device forever. */
    char *buf;
    size_t len;
    int rc = sgl__read_regular(path, "hwloc XML file", SGL__XML_MAX_BYTES, &buf,
                               &len);
    if (rc)
        return rc;
    char ep[512];
    sgl__escape(path, 256, ep, sizeof ep); /* for messages */
    hwloc_topology_t topo;
    if (hwloc_topology_init(&topo)) {
        free(buf);
        return sgl_error_set(SGL_EHWLOC, "hwloc_topology_init failed: %s",
                             strerror(errno));
    }
    /* The size hwloc wants counts the terminating NUL. */
    if (hwloc_topology_set_xmlbuffer(topo, buf, (int)len + 1) ||
        hwloc_topology_load(topo)) {
        free(buf);
        hwloc_topology_destroy(topo);
        return sgl_error_set(SGL_EHWLOC,
                             "'%s' is not a valid hwloc XML topology", ep);
    }
    free(buf);
    *ret_topo = topo;
    return SGL_OK;
}

int sgl_machine_from_xml(const char *path, const sgl_machine_opts_t *opts,
                         sgl_machine_t **ret_machine)
{
    if (!path || !ret_machine)
        return sgl_error_set(SGL_EINVAL, "sgl_machine_from_xml: NULL "
                                         "argument");
    hwloc_topology_t topo;
    int rc = sgl__hwloc_load_xml(path, &topo);
    if (rc)
        return rc;
    struct sgl_node *root = sgl__node_new("machine", -1);
    rc = root ? sgl__hwloc_fill(root, topo, NULL,
                                opts ? opts->max_threads : 0)
              : SGL_ENOMEM;
    hwloc_topology_destroy(topo);
    size_t len = strlen(path) + sizeof "xml: ";
    char *source = rc ? NULL : malloc(len);
    if (rc == SGL_OK && !source)
        rc = sgl_error_set(SGL_ENOMEM, "out of memory building a machine");
    if (rc) {
        sgl__node_free(root);
        return rc;
    }
    snprintf(source, len, "xml: %s", path);
    rc = sgl__machine_finish(root, opts ? opts->keep_single : 0, source,
                             ret_machine);
    free(source);
    return rc;
}
