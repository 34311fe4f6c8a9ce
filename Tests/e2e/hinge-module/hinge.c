// SPDX-License-Identifier: GPL-2.0
/*
 * A test-only IIO device named "hinge" whose angle is set from user space.
 *
 * The end-to-end tier (Tests/e2e) loads it in a qemu guest to stand in for a hinge angle
 * sensor (the real ones, such as HID's hid-sensor-custom-intel-hinge, are absent from Debian's
 * kernel and need hardware anyway). Like that driver it reports the hinge angle as
 * in_angl0_raw in degrees, with a scale converting to radians: in_angl0_scale by default, or
 * in_angl_scale (shared by type, the Intel HID driver's layout) with shared_scale=1.
 *
 * Set the angle with the module parameter, at load or at run time:
 *   insmod hinge.ko angle=180 [shared_scale=1]
 *   echo 90 > /sys/module/hinge/parameters/angle
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/platform_device.h>
#include <linux/iio/iio.h>

static int angle = 180;

static int angle_set(const char *val, const struct kernel_param *kp)
{
	int value;
	int err = kstrtoint(val, 0, &value);

	if (err)
		return err;
	if (value < 0 || value > 360)
		return -ERANGE;
	WRITE_ONCE(angle, value);
	return 0;
}

static const struct kernel_param_ops angle_ops = {
	.set = angle_set,
	.get = param_get_int,
};
module_param_cb(angle, &angle_ops, &angle, 0644);
MODULE_PARM_DESC(angle, "hinge angle in degrees, 0 (closed) to 360");

static bool shared_scale;
module_param(shared_scale, bool, 0444);
MODULE_PARM_DESC(shared_scale, "name the scale in_angl_scale (shared by type) instead of in_angl0_scale");

static const struct iio_chan_spec hinge_channel_separate_scale = {
	.type = IIO_ANGL,
	.indexed = 1,
	.channel = 0,
	.info_mask_separate = BIT(IIO_CHAN_INFO_RAW) | BIT(IIO_CHAN_INFO_SCALE),
};

static const struct iio_chan_spec hinge_channel_shared_scale = {
	.type = IIO_ANGL,
	.indexed = 1,
	.channel = 0,
	.info_mask_separate = BIT(IIO_CHAN_INFO_RAW),
	.info_mask_shared_by_type = BIT(IIO_CHAN_INFO_SCALE),
};

static int hinge_read_raw(struct iio_dev *indio_dev, struct iio_chan_spec const *chan,
			  int *val, int *val2, long mask)
{
	switch (mask) {
	case IIO_CHAN_INFO_RAW:
		*val = READ_ONCE(angle);
		return IIO_VAL_INT;
	case IIO_CHAN_INFO_SCALE:
		/* one degree in radians: 0.017453293 */
		*val = 0;
		*val2 = 17453293;
		return IIO_VAL_INT_PLUS_NANO;
	default:
		return -EINVAL;
	}
}

static const struct iio_info hinge_info = {
	.read_raw = hinge_read_raw,
};

static struct platform_device *hinge_pdev;
static struct iio_dev *hinge_iio;

static int __init hinge_init(void)
{
	int err;

	hinge_pdev = platform_device_register_simple("foldcam-test-hinge", PLATFORM_DEVID_NONE, NULL, 0);
	if (IS_ERR(hinge_pdev))
		return PTR_ERR(hinge_pdev);

	hinge_iio = iio_device_alloc(&hinge_pdev->dev, 0);
	if (!hinge_iio) {
		err = -ENOMEM;
		goto unregister_pdev;
	}
	hinge_iio->name = "hinge";
	hinge_iio->info = &hinge_info;
	hinge_iio->modes = INDIO_DIRECT_MODE;
	hinge_iio->channels = shared_scale ? &hinge_channel_shared_scale : &hinge_channel_separate_scale;
	hinge_iio->num_channels = 1;

	err = iio_device_register(hinge_iio);
	if (err)
		goto free_iio;
	return 0;

free_iio:
	iio_device_free(hinge_iio);
unregister_pdev:
	platform_device_unregister(hinge_pdev);
	return err;
}

static void __exit hinge_exit(void)
{
	iio_device_unregister(hinge_iio);
	iio_device_free(hinge_iio);
	platform_device_unregister(hinge_pdev);
}

module_init(hinge_init);
module_exit(hinge_exit);
MODULE_DESCRIPTION("foldcam test hinge: an IIO angle sensor set through a module parameter");
MODULE_LICENSE("GPL");
