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
 *   insmod hinge.ko angle=180 [shared_scale=1] [buffered=1]
 *   echo 90 > /sys/module/hinge/parameters/angle
 *
 * in_angl0_sampling_frequency (50 Hz unless written, 1 to 1000) is the rate a reader should
 * poll at: 50 Hz (20 ms) is no faster than any check's sensorPollMilliseconds, so a daemon polls
 * the default module at its configured period, as before the attribute existed. With buffered=1 the device also has an IIO software buffer (kfifo, no trigger) of
 * le:s32 angle samples, fed as HID hinge sensors feed theirs: one sample when the buffer is
 * enabled and one for every angle written, nothing periodic, so a reader of /dev/iio:deviceN
 * sleeps until the angle changes. Needs the kfifo_buf module (modprobe industrialio kfifo_buf).
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/platform_device.h>
#include <linux/iio/iio.h>
#include <linux/iio/buffer.h>
#include <linux/iio/kfifo_buf.h>

static int angle = 180;
static struct iio_dev *hinge_iio;
/* Serializes pushes (the kfifo has one writer) with enabling and disabling the buffer. */
static DEFINE_MUTEX(hinge_push_lock);
static bool hinge_buffer_on;

/* Pushes the current angle while the buffer runs; the caller holds hinge_push_lock. */
static void hinge_push_locked(void)
{
	s32 sample = READ_ONCE(angle);

	if (hinge_buffer_on)
		iio_push_to_buffers(hinge_iio, &sample);
}

static int angle_set(const char *val, const struct kernel_param *kp)
{
	int value;
	int err = kstrtoint(val, 0, &value);

	if (err)
		return err;
	if (value < 0 || value > 360)
		return -ERANGE;
	mutex_lock(&hinge_push_lock);
	WRITE_ONCE(angle, value);
	hinge_push_locked();
	mutex_unlock(&hinge_push_lock);
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

static bool buffered;
module_param(buffered, bool, 0444);
MODULE_PARM_DESC(buffered, "give the device an IIO buffer fed on enable and on every angle change (default: polled only)");

static int sampling_hz = 50;

/* One signed 32-bit little-endian sample per scan: the angle in degrees. */
#define HINGE_SCAN_TYPE { .sign = 's', .realbits = 32, .storagebits = 32, .endianness = IIO_LE }

static const struct iio_chan_spec hinge_channel_separate_scale = {
	.type = IIO_ANGL,
	.indexed = 1,
	.channel = 0,
	.info_mask_separate = BIT(IIO_CHAN_INFO_RAW) | BIT(IIO_CHAN_INFO_SCALE) | BIT(IIO_CHAN_INFO_SAMP_FREQ),
	.scan_index = 0,
	.scan_type = HINGE_SCAN_TYPE,
};

static const struct iio_chan_spec hinge_channel_shared_scale = {
	.type = IIO_ANGL,
	.indexed = 1,
	.channel = 0,
	.info_mask_separate = BIT(IIO_CHAN_INFO_RAW) | BIT(IIO_CHAN_INFO_SAMP_FREQ),
	.info_mask_shared_by_type = BIT(IIO_CHAN_INFO_SCALE),
	.scan_index = 0,
	.scan_type = HINGE_SCAN_TYPE,
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
	case IIO_CHAN_INFO_SAMP_FREQ:
		*val = READ_ONCE(sampling_hz);
		return IIO_VAL_INT;
	default:
		return -EINVAL;
	}
}

static int hinge_write_raw(struct iio_dev *indio_dev, struct iio_chan_spec const *chan,
			   int val, int val2, long mask)
{
	if (mask != IIO_CHAN_INFO_SAMP_FREQ)
		return -EINVAL;
	if (val < 1 || val > 1000 || val2 != 0)
		return -EINVAL;
	WRITE_ONCE(sampling_hz, val);
	return 0;
}

static const struct iio_info hinge_info = {
	.read_raw = hinge_read_raw,
	.write_raw = hinge_write_raw,
};

/* A reader that enables the buffer gets the current angle at once, as from a HID sensor. */
static int hinge_postenable(struct iio_dev *indio_dev)
{
	mutex_lock(&hinge_push_lock);
	hinge_buffer_on = true;
	hinge_push_locked();
	mutex_unlock(&hinge_push_lock);
	return 0;
}

static int hinge_predisable(struct iio_dev *indio_dev)
{
	mutex_lock(&hinge_push_lock);
	hinge_buffer_on = false;
	mutex_unlock(&hinge_push_lock);
	return 0;
}

static const struct iio_buffer_setup_ops hinge_buffer_ops = {
	.postenable = hinge_postenable,
	.predisable = hinge_predisable,
};

static struct platform_device *hinge_pdev;
static struct iio_buffer *hinge_buffer;

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

	if (buffered) {
		/* What devm_iio_kfifo_buffer_setup does, without tying the buffer to devres. */
		hinge_buffer = iio_kfifo_allocate();
		if (!hinge_buffer) {
			err = -ENOMEM;
			goto free_iio;
		}
		hinge_iio->modes |= INDIO_BUFFER_SOFTWARE;
		hinge_iio->setup_ops = &hinge_buffer_ops;
		err = iio_device_attach_buffer(hinge_iio, hinge_buffer);
		if (err)
			goto free_buffer;
	}

	err = iio_device_register(hinge_iio);
	if (err)
		goto free_buffer;
	return 0;

free_buffer:
	if (hinge_buffer)
		iio_kfifo_free(hinge_buffer);
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
	/* The device held its own reference to the buffer; this drops ours. */
	if (hinge_buffer)
		iio_kfifo_free(hinge_buffer);
	platform_device_unregister(hinge_pdev);
}

module_init(hinge_init);
module_exit(hinge_exit);
MODULE_DESCRIPTION("foldcam test hinge: an IIO angle sensor set through a module parameter");
MODULE_LICENSE("GPL");
