-- Create index "contactinbox_contact_id_account_id" to table: "contact_inboxes"
CREATE INDEX `contactinbox_contact_id_account_id` ON `contact_inboxes` (`contact_id`, `account_id`);
