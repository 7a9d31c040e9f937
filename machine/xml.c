/* Trees from hwloc XML exports: machines one does not have, and fixed
 * topologies for tests. */
#include <errno.h>
#include <hwloc.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "machine_impl.h"

int sgl__hwloc_load_xml(const char *path, hwloc_topology_t *ret_topo)
{
    /* hwloc reports a missing file and a malformed one alike; users need
     * to know which. */
    char ep[512];
    sgl__escape(path, 256, ep, sizeof ep); /* for messages */
    FILE *f = fopen(path, "r");
    if (!f) {
        int e = errno;
        return sgl_error_set(SGL_EIO, "cannot open hwloc XML file '%s': %s",
                             ep, strerror(e));
    }
    struct stat st;
    int is_dir = fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode);
    fclose(f);
    if (is_dir)
        return sgl_error_set(SGL_EIO,
                             "hwloc XML file '%s' is a directory", ep);
    hwloc_topology_t topo;
    if (hwloc_topology_init(&topo))
        return sgl_error_set(SGL_EHWLOC, "hwloc_topology_init failed: %s",
                             strerror(errno));
    if (hwloc_topology_set_xml(topo, path) || hwloc_topology_load(topo)) {
        hwloc_topology_destroy(topo);
        return sgl_error_set(SGL_EHWLOC,
                             "'%s' is not a valid hwloc XML topology", ep);
    }
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
